internal import CFFmpeg

/// An AVFilterGraph and the buffer source and sinks at its ends. The graph
/// owns its filter contexts; this object owns the graph and frees it in
/// deinit. Used on one thread at a time (a rung's worker, or the caller).
/// libavfilter is called through `FilterLibrary`, opened by the first graph.
final class FilterGraph {
  private let avfilter: FilterLibrary
  private var graph: UnsafeMutablePointer<AVFilterGraph>?
  /// The `buffer` source that frames are pushed into; nil for a graph of sources only.
  private var source: UnsafeMutablePointer<AVFilterContext>?
  private var sinks: [UnsafeMutablePointer<AVFilterContext>] = []

  private init() throws {
    avfilter = try FilterLibrary.shared()
    guard let g = avfilter.graphAlloc() else {
      throw FFmpegError(call: "avfilter_graph_alloc", code: hlspack_averror(ENOMEM))
    }
    graph = g
    // Filters run on the caller's thread: the ladder's rungs already keep the cores busy.
    g.pointee.nb_threads = 1
  }

  deinit { avfilter.graphFree(&graph) }

  private var pointer: UnsafeMutablePointer<AVFilterGraph> { graph.unsafelyUnwrapped }

  /// A graph of source filters (`description` in FFmpeg's filtergraph syntax)
  /// whose unconnected outputs, in the order written, end in sinks.
  static func sources(_ description: String) throws -> FilterGraph {
    let made = try FilterGraph()
    var outputs: UnsafeMutablePointer<AVFilterInOut>?
    var inputs: UnsafeMutablePointer<AVFilterInOut>?
    defer {
      made.avfilter.inOutFree(&outputs)
      made.avfilter.inOutFree(&inputs)
    }
    try check(
      made.avfilter.graphParse2(made.pointer, description, &inputs, &outputs), "avfilter_graph_parse2(\(description))")
    guard inputs == nil else { throw MediaError("the source graph has an unconnected input: \(description)") }
    var open = outputs
    while let pad = open {
      let audio = made.avfilter.padGetType(pad.pointee.filter_ctx.pointee.output_pads, pad.pointee.pad_idx)
        == AVMEDIA_TYPE_AUDIO
      let sink = try made.filter(audio ? "abuffersink" : "buffersink", name: "sink\(made.sinks.count)", options: [:])
      try check(made.avfilter.link(pad.pointee.filter_ctx, UInt32(pad.pointee.pad_idx), sink, 0), "avfilter_link")
      made.sinks.append(sink)
      open = pad.pointee.next
    }
    try check(made.avfilter.graphConfig(made.pointer, nil), "avfilter_graph_config")
    return made
  }

  /// A chain for 8-bit 4:2:0 pictures of one size whose frames count in
  /// `timeBase`: buffer → each filter with its options → buffersink.
  /// Options go through a dictionary, so their values need no escaping.
  static func videoChain(
    width: Int32, height: Int32, timeBase: AVRational, filters: [(name: String, options: [String: String])]
  ) throws -> FilterGraph {
    let made = try FilterGraph()
    let source = try made.filter(
      "buffer", name: "in",
      options: [
        "width": "\(width)", "height": "\(height)", "pix_fmt": "\(AV_PIX_FMT_YUV420P.rawValue)",
        "time_base": "\(timeBase.num)/\(timeBase.den)", "pixel_aspect": "1/1",
      ])
    var last = source
    for (index, step) in filters.enumerated() {
      let next = try made.filter(step.name, name: "f\(index)", options: step.options)
      try check(made.avfilter.link(last, 0, next, 0), "avfilter_link(\(step.name))")
      last = next
    }
    let sink = try made.filter("buffersink", name: "out", options: [:])
    try check(made.avfilter.link(last, 0, sink, 0), "avfilter_link(buffersink)")
    try check(made.avfilter.graphConfig(made.pointer, nil), "avfilter_graph_config")
    made.source = source
    made.sinks = [sink]
    return made
  }

  /// Creates and initialises one filter; an unknown option is an error, not ignored.
  private func filter(_ name: String, name instance: String, options: [String: String]) throws
    -> UnsafeMutablePointer<AVFilterContext>
  {
    guard let definition = avfilter.getByName(name) else { throw MediaError("this FFmpeg has no \(name) filter") }
    guard let context = avfilter.graphAllocFilter(pointer, definition, instance) else {
      throw FFmpegError(call: "avfilter_graph_alloc_filter(\(name))", code: hlspack_averror(ENOMEM))
    }
    var dictionary: OpaquePointer?
    defer { av_dict_free(&dictionary) }
    for (key, value) in options.sorted(by: { $0.key < $1.key }) { av_dict_set(&dictionary, key, value, 0) }
    try check(avfilter.initDict(context, &dictionary), "avfilter_init_dict(\(name))")
    if let left = av_dict_get(dictionary, "", nil, AV_DICT_IGNORE_SUFFIX) {
      throw MediaError("the \(name) filter has no option \(String(cString: left.pointee.key))")
    }
    return context
  }

  /// Pushes a picture (the graph takes its own reference), or nil at the end.
  func push(_ frame: UnsafeMutablePointer<AVFrame>?) throws {
    guard let source else { throw MediaError("a graph of sources takes no frames") }
    let flags = Int32(AV_BUFFERSRC_FLAG_KEEP_REF)
    try check(avfilter.bufferSourceAddFrameFlags(source, frame, flags), "av_buffersrc_add_frame_flags")
  }

  /// The next frame of sink `index` into `frame`; false when the graph needs
  /// more input or has ended.
  func pull(into frame: Frame, sink index: Int = 0) throws -> Bool {
    let rc = avfilter.bufferSinkGetFrame(sinks[index], frame.pointer)
    if rc == FFmpegError.tryAgain || rc == FFmpegError.endOfFile { return false }
    try check(rc, "av_buffersink_get_frame")
    return true
  }

  /// Sink `index`'s time base, for the frames it gives.
  func timeBase(sink index: Int) -> AVRational { avfilter.bufferSinkGetTimeBase(sinks[index]) }
}
