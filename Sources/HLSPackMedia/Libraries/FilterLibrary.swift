internal import CFFmpeg

/// The libavfilter functions `FilterGraph` calls, looked up once, on the
/// first filter graph (`hlspack fixture make`'s labelled source and labels).
/// The SONAME follows the headers the build compiled against
/// (`LIBAVFILTER_VERSION_MAJOR`), as linking would.
struct FilterLibrary: @unchecked Sendable {
  let graphAlloc: hlspack_avfilter_graph_alloc_fn
  let graphFree: hlspack_avfilter_graph_free_fn
  let graphParse2: hlspack_avfilter_graph_parse2_fn
  let inOutFree: hlspack_avfilter_inout_free_fn
  let padGetType: hlspack_avfilter_pad_get_type_fn
  let getByName: hlspack_avfilter_get_by_name_fn
  let graphAllocFilter: hlspack_avfilter_graph_alloc_filter_fn
  let initDict: hlspack_avfilter_init_dict_fn
  let link: hlspack_avfilter_link_fn
  let graphConfig: hlspack_avfilter_graph_config_fn
  let bufferSourceAddFrameFlags: hlspack_av_buffersrc_add_frame_flags_fn
  let bufferSinkGetFrame: hlspack_av_buffersink_get_frame_fn
  let bufferSinkGetTimeBase: hlspack_av_buffersink_get_time_base_fn

  /// The table, loaded on first use; throws `SharedLibraryError` when libavfilter is missing.
  static func shared() throws -> FilterLibrary { try loaded.get() }

  private static let loaded = Result {
    try FilterLibrary(
      SharedLibrary(
        opening: "libavfilter.so.\(LIBAVFILTER_VERSION_MAJOR)",
        neededBy: "hlspack fixture make (and a rung with \"video_range\" \"pq\" or \"hlg\")",
        package: "libavfilter\(LIBAVFILTER_VERSION_MAJOR)"))
  }

  private init(_ library: SharedLibrary) throws {
    graphAlloc = try library.function("avfilter_graph_alloc")
    graphFree = try library.function("avfilter_graph_free")
    graphParse2 = try library.function("avfilter_graph_parse2")
    inOutFree = try library.function("avfilter_inout_free")
    padGetType = try library.function("avfilter_pad_get_type")
    getByName = try library.function("avfilter_get_by_name")
    graphAllocFilter = try library.function("avfilter_graph_alloc_filter")
    initDict = try library.function("avfilter_init_dict")
    link = try library.function("avfilter_link")
    graphConfig = try library.function("avfilter_graph_config")
    bufferSourceAddFrameFlags = try library.function("av_buffersrc_add_frame_flags")
    bufferSinkGetFrame = try library.function("av_buffersink_get_frame")
    bufferSinkGetTimeBase = try library.function("av_buffersink_get_time_base")
  }
}
