internal import CFFmpeg
import Foundation
import HLSPackCore

/// Packaging without re-encoding: each rendition takes a pre-encoded source's
/// video (and audio) packets as they are and cuts at its keyframes. Renditions
/// run in parallel, each reading its own source.
public final class CopyProducer: RenditionProducer {
  public struct Rendition: Sendable {
    public var name: String
    public var source: String

    public init(name: String, source: String) {
      self.name = name
      self.source = source
    }
  }

  private let renditions: [Rendition]
  private let inputs: [MediaInput]
  private let copyAudio: Bool
  private let output: RenditionOutput

  /// Opens every source first, so a bad one fails before any work.
  public init(renditions: [Rendition], copyAudio: Bool, output: RenditionOutput) throws {
    self.renditions = renditions
    inputs = try renditions.map { try MediaInput(path: $0.source) }
    // Variants must carry the same audio: switching must not drop the sound.
    if copyAudio, let withAudio = zip(renditions, inputs).first(where: { $0.1.audioStreamIndex != nil }),
      let without = zip(renditions, inputs).first(where: { $0.1.audioStreamIndex == nil })
    {
      throw PackError.input(
        path: without.0.source,
        reason: "has no audio stream, but the source of rendition \(withAudio.0.name) has one; "
          + "with \"audio\": {\"codec\": \"copy\"} every rendition's source needs audio")
    }
    self.copyAudio = copyAudio
    self.output = output
  }

  public var duration: Double? { inputs.first?.contentDuration }
  public var hasAudio: Bool { inputs.allSatisfy { $0.audioStreamIndex != nil } }
  /// Nothing is scaled or chosen for the user: each source's video is taken as
  /// it is, and renditions are compared where they really cut, after the run.
  /// Only a turned source in MPEG-TS, which has no place for the turn, is told of.
  public var notes: [String] {
    guard output.container == .ts else { return [] }
    return zip(renditions, inputs).compactMap { rendition, input in
      guard input.videoOrientation != .upright else { return nil }
      return
        "\(input.path): rendition \(rendition.name): the video is stored turned or mirrored and shown upright by its display matrix, "
        + "which MPEG-TS cannot carry: players will show it as stored; use \"container\": \"fmp4\" (which keeps the matrix) or encode the rung"
    }
  }

  public func run(destinations: [SegmentDestination], progress: (Double) -> Void) throws -> [WrittenStreamFacts] {
    let remuxers = try zip(zip(renditions, inputs), destinations).map { pair, destination in
      do {
        return try RenditionRemuxer(
          name: pair.0.name, input: pair.1, copyAudio: copyAudio, output: output, destination: destination)
      } catch let error as PackError {
        throw error
      } catch {
        // The rendition's own source, not the asset's input: each rung may have its own.
        throw PackError.media(path: pair.1.path, reason: "rendition \(pair.0.name): \(error)")
      }
    }
    // The first rendition runs here and reports progress; the others on threads.
    let done = DispatchSemaphore(value: 0)
    for remuxer in remuxers.dropFirst() {
      Thread {
        remuxer.runCatching { _ in }
        done.signal()
      }.start()
    }
    remuxers.first?.runCatching(progress)
    for _ in remuxers.dropFirst() { done.wait() }
    for remuxer in remuxers {
      if let failure = remuxer.failure {
        if let error = failure as? PackError { throw error }
        throw PackError.media(path: remuxer.input.path, reason: "rendition \(remuxer.name): \(failure)")
      }
    }
    try checkAlignment(remuxers)
    return remuxers.compactMap(\.facts)
  }

  /// Every rendition must cut at the same times (RFC 8216bis §6.2.4).
  private func checkAlignment(_ remuxers: [RenditionRemuxer]) throws {
    guard let reference = remuxers.first else { return }
    for other in remuxers.dropFirst() {
      let a = reference.segmentStarts, b = other.segmentStarts
      // One frame of tolerance would hide real misalignment; allow 1 ms.
      let mismatch = Array(zip(a, b)).firstIndex { abs($0 - $1) > 90 }
      if let i = mismatch ?? (a.count == b.count ? nil : min(a.count, b.count)) {
        let time = { (list: [Int64]) in
          i < list.count
            ? String(format: "%.3f s", MediaClock.seconds(list[i] - MediaClock.timelineOffset)) : "nowhere (no segment)"
        }
        throw PackError.media(
          path: other.input.path,
          reason:
            "rendition \(other.name) is not keyframe-aligned with \(reference.name): segment \(i) starts at \(time(b)) in \(other.name) and at \(time(a)) in \(reference.name)"
        )
      }
      // Variants cover the same time range: a client switching near the end must find it.
      if abs(other.end - reference.end) > Self.endTolerance {
        let end = { (r: RenditionRemuxer) in
          String(format: "%.3f s", MediaClock.seconds(r.end - MediaClock.timelineOffset))
        }
        throw PackError.media(
          path: other.input.path,
          reason:
            "rendition \(other.name) ends at \(end(other)) but \(reference.name) ends at \(end(reference)); the sources must have the same length"
        )
      }
    }
  }

  /// Renditions at different frame rates end a frame apart at most; 0.1 s
  /// allows that down to 10 fps.
  private static let endTolerance = Int64(MediaClock.ticksPerSecond / 10)
}
