internal import CFFmpeg

/// FFmpeg's own console messages. Quiet by default: hlspack reports failures
/// itself, naming the file; `verbose` lets FFmpeg's warnings through for debugging.
public enum FFmpegLogging {
  public static func configure(verbose: Bool) {
    av_log_set_level(verbose ? AV_LOG_WARNING : AV_LOG_QUIET)
  }
}
