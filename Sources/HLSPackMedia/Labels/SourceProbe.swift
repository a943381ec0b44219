internal import CFFmpeg
import HLSPackCore

/// Checks before any work that a file named by the user decodes, so that a
/// bad `--source` is refused with nothing written.
public enum SourceProbe {
  /// Throws `PackError.input` naming the file unless its video stream gives a
  /// picture within its first 300 packets.
  public static func checkDecodes(path: String) throws {
    let input = try MediaInput(path: path)
    do {
      let decoder = try Decoder(stream: input.stream(input.videoStreamIndex), describing: "video", threads: 1)
      let packet = try Packet()
      let frame = try Frame()
      var packets = 0
      while packets < 300, try input.read(into: packet) {
        defer { av_packet_unref(packet.pointer) }
        guard packet.pointer.pointee.stream_index == input.videoStreamIndex else { continue }
        packets += 1
        try? decoder.send(packet)
        if try decoder.receive(into: frame) { return }
      }
      try decoder.send(nil)
      if try decoder.receive(into: frame) { return }
    } catch {
      throw PackError.input(path: path, reason: "its video does not decode (\(error))")
    }
    throw PackError.input(path: path, reason: "no video picture could be decoded")
  }
}
