import Foundation
import HLSPackTestSupport

/// zxing-cpp (from PyPI, in the Python tools' environment that
/// scripts/bootstrap makes): a QR reader that shares no code with libzbar,
/// which `hlspack fixture check` uses, so a label both read is really there.
enum IndependentQRReader {
  /// The tools' Python with zxingcpp importable, installing it there once if
  /// pip can; nil (the caller skips, saying so) when neither works.
  static let python: String? = {
    let python = DeployTests.tools + "/bin/python3"
    guard FileManager.default.isExecutableFile(atPath: python) else { return nil }
    if (try? Command.run(python, ["-c", "import zxingcpp, numpy"]))?.status == 0 { return python }
    let pip = try? Command.run(python, ["-m", "pip", "install", "-q", "--disable-pip-version-check", "zxing-cpp", "numpy"])
    guard pip?.status == 0 else { return nil }
    return (try? Command.run(python, ["-c", "import zxingcpp, numpy"]))?.status == 0 ? python : nil
  }()

  static let script = """
    import sys, zxingcpp, numpy
    path, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    data = numpy.fromfile(path, dtype=numpy.uint8)
    size = width * height
    for i in range(len(data) // size):
        image = data[i * size:(i + 1) * size].reshape(height, width)
        codes = [c.text for c in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)]
        print(codes[0] if codes else "")
    """

  /// One line per decoded picture of `media` (every picture once, in order,
  /// at its own size: no frame is repeated to fill a gap before the first): the QR code's text, or "" where none was read.
  static func read(_ media: URL, width: Int, height: Int, python: String) throws -> [String] {
    let raw = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString).gray")
    defer { try? FileManager.default.removeItem(at: raw) }
    let decode = try Command.run(
      "ffmpeg",
      ["-nostdin", "-v", "error", "-allowed_extensions", "ALL", "-i", media.path, "-map", "0:v:0", "-fps_mode", "passthrough",
       "-f", "rawvideo",
       "-pix_fmt", "gray", "-y", raw.path])
    guard decode.status == 0 else { throw FixtureError("ffmpeg \(media.path): \(decode.stderr)") }
    let run = try Command.run(python, ["-c", script, raw.path, "\(width)", "\(height)"])
    guard run.status == 0 else { throw FixtureError("zxing-cpp: \(run.stderr)") }
    return run.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
  }
}
