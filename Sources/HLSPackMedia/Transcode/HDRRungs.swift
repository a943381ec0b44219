import HLSPackCore

/// What an HDR source may be encoded to: HEVC Main 10 keeps its transfer,
/// primaries and matrix (PQ or HLG); H.264, 8-bit HEVC and SDR rungs would need
/// the tone mapping hlspack does not do, and would come out washed out
/// under an SDR label, so they are refused, naming the profile field.
enum HDRRungs {
  static func check(_ job: LadderJob, input: MediaInput) throws {
    let range = input.videoRange.rawValue
    let prefix = "video stream #\(input.videoStreamIndex) is HDR (\(range))"
    for (index, rung) in job.rungs.enumerated() where rung.codec != .copy {
      if rung.codec != .hevc {
        throw PackError.input(
          path: input.path,
          reason:
            "\(prefix); encoded rungs are 8-bit SDR and hlspack does not tone-map, so $.video[\(index)].codec \"\(rung.codec.rawValue)\" would show wrong colours: use \"hevc\" (Main 10, which keeps \(range)) or \"copy\", or convert the source to SDR first"
        )
      }
      if let asked = rung.videoRange, asked != input.videoRange {
        throw PackError.input(
          path: input.path,
          reason:
            "\(prefix); $.video[\(index)].video_range \"\(asked.rawValue.lowercased())\" would need tone mapping, which hlspack does not do: leave it out to keep \(range)"
        )
      }
      if let profile = rung.profile, profile != "main10" {
        throw PackError.input(
          path: input.path,
          reason:
            "\(prefix); $.video[\(index)].profile \"\(profile)\" is not 10-bit, and \(range) needs Main 10: leave \"profile\" out or set \"main10\""
        )
      }
    }
    if job.labels {
      throw PackError.input(path: input.path, reason: "\(prefix); test labels are drawn on 8-bit SDR pictures only")
    }
  }
}
