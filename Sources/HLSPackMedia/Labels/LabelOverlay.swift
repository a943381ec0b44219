internal import CFFmpeg
import Foundation
import HLSPackCore

/// Burns one rung's labels into its scaled pictures: the rendition's name,
/// size and bit rate, the frame number and media time as text (drawtext, in a
/// small filter graph of the rung's own), and the same facts as a QR code
/// (`LabelPayload`) that a reader of a recording decodes.
final class LabelOverlay {
  /// The font drawtext renders with (Debian's fonts-dejavu-core).
  static let fontFile = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"

  private let rendition: String
  private let rate: FrameRate
  private let graph: FilterGraph
  private let labelled: Frame

  init(rung: VideoRung, rate: FrameRate) throws {
    guard FileManager.default.isReadableFile(atPath: Self.fontFile) else {
      throw MediaError("labels need the font \(Self.fontFile) (Debian's fonts-dejavu-core)")
    }
    rendition = rung.name
    self.rate = rate
    let height = rung.height
    let size = max(10, height / 18)
    let margin = max(4, height / 40)
    let kbps = (rung.bitrate + 500) / 1000
    func text(_ line: String, row: Int) -> (name: String, options: [String: String]) {
      (
        "drawtext",
        [
          "fontfile": Self.fontFile, "fontsize": "\(size)", "fontcolor": "white", "box": "1",
          "boxcolor": "black@0.7", "boxborderw": "\(max(2, size / 6))", "x": "\(margin)",
          // Below the top eighth, which the sync flash turns white.
          "y": "\(height / 8 + margin + row * size * 3 / 2)", "text": line,
        ]
      )
    }
    // drawtext's own counters: the rung feeds it every frame once, in order,
    // with pts = frame number in a 1/fps time base. The options are passed
    // unescaped (a dictionary), so `pts:hms` is written as drawtext reads it.
    graph = try FilterGraph.videoChain(
      width: Int32(rung.width), height: Int32(height),
      timeBase: AVRational(num: Int32(rate.denominator), den: Int32(rate.numerator)),
      filters: [
        text("\(rung.name) \(rung.width)x\(height) \(kbps) kb/s", row: 0),
        text("frame %{frame_num}", row: 1),
        text("time %{pts:hms}", row: 2),
      ])
    labelled = try Frame()
  }

  /// `picture` with the labels of frame `index` on it, in a frame owned by the
  /// overlay and valid until the next call; `picture` itself is not changed.
  func label(_ picture: UnsafeMutablePointer<AVFrame>, frame index: Int64) throws -> UnsafeMutablePointer<AVFrame> {
    av_frame_unref(labelled.pointer)
    picture.pointee.pts = index
    try graph.push(picture)
    guard try graph.pull(into: labelled) else { throw MediaError("the label graph kept frame \(index) back") }
    let output = labelled.pointer
    try check(av_frame_make_writable(output), "av_frame_make_writable")
    let payload = LabelPayload(rendition: rendition, frame: Int(index), rate: rate)
    QRPainter.paint(try QRCode(text: payload.description), into: output)
    // The encoder reads the frame type the rung chose (forced IDRs).
    output.pointee.pict_type = picture.pointee.pict_type
    return output
  }
}
