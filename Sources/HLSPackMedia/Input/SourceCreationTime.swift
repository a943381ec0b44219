internal import CFFmpeg
import HLSPackCore

/// When a source says it was made: the `creation_time` its container declares
/// (MP4's mvhd, Matroska's DateUTC, …) as FFmpeg reports it, or, failing
/// that, its video stream's.
public enum SourceCreationTime {
  /// The text as the container gives it; nil when it declares none.
  public static func read(path: String) throws -> String? {
    let input = try MediaInput(path: path)
    return input.metadata("creation_time")
  }
}

extension MediaInput {
  /// A container tag, or the video stream's when the container has none.
  func metadata(_ key: String) -> String? {
    let tag =
      av_dict_get(formatMetadata, key, nil, 0) ?? av_dict_get(stream(videoStreamIndex).pointee.metadata, key, nil, 0)
    return tag.map { String(cString: $0.pointee.value) }
  }
}
