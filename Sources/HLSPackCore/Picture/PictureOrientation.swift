/// How a decoded picture is turned or mirrored to be shown as players show
/// it, from the display matrix phones and editors store beside the video.
/// A source pixel (x, y) of a w×h picture lands at
/// (a·x + b·y, c·x + d·y), moved back into the picture; the entries are 0 or ±1.
public struct PictureOrientation: Sendable, Equatable {
  public var a: Int, b: Int, c: Int, d: Int

  public static let upright = PictureOrientation(a: 1, b: 0, c: 0, d: 1)
  public static let flippedLeftRight = PictureOrientation(a: -1, b: 0, c: 0, d: 1)
  public static let flippedTopBottom = PictureOrientation(a: 1, b: 0, c: 0, d: -1)
  public static let halfTurn = PictureOrientation(a: -1, b: 0, c: 0, d: -1)
  public static let clockwise = PictureOrientation(a: 0, b: -1, c: 1, d: 0)
  public static let counterclockwise = PictureOrientation(a: 0, b: 1, c: -1, d: 0)
  /// Rows become columns: a quarter turn counterclockwise, then upside down.
  public static let transposed = PictureOrientation(a: 0, b: 1, c: 1, d: 0)
  /// A quarter turn clockwise, then upside down.
  public static let antiTransposed = PictureOrientation(a: 0, b: -1, c: -1, d: 0)

  /// Width and height trade places.
  public var swapsSides: Bool { a == 0 }

  /// FFmpeg's own autorotation, decision for decision (the `ffmpeg` CLI and
  /// ffplay): the angle picks a quarter turn, and the matrix's signs whether
  /// the picture is mirrored too. `matrix` is the 3×3 display matrix (16.16
  /// fixed point, row by row); `counterclockwiseDegrees` what
  /// av_display_rotation_get reports for it. Other angles go to the nearest
  /// quarter turn.
  public init(displayMatrix matrix: [Int32], counterclockwiseDegrees: Double) {
    guard matrix.count >= 9, counterclockwiseDegrees.isFinite else {
      self = .upright
      return
    }
    var theta = -counterclockwiseDegrees.rounded()
    theta -= 360 * (theta / 360 + 0.9 / 360).rounded(.down)
    switch Int((theta / 90).rounded()) % 4 {
    case 1: self = matrix[3] > 0 ? .transposed : .clockwise
    case 2: self = PictureOrientation(a: matrix[0] < 0 ? -1 : 1, b: 0, c: 0, d: matrix[4] < 0 ? -1 : 1)
    case 3: self = matrix[3] < 0 ? .antiTransposed : .counterclockwise
    default: self = matrix[4] < 0 ? .flippedTopBottom : .upright
    }
  }

  public init(a: Int, b: Int, c: Int, d: Int) {
    (self.a, self.b, self.c, self.d) = (a, b, c, d)
  }

  /// Where source sample (x, y) of a `width`×`height` plane lands in the
  /// target plane (rows `targetStride` apart): origin + x·xStep + y·yStep.
  public func steps(width: Int, height: Int, targetStride: Int) -> (origin: Int, xStep: Int, yStep: Int) {
    let tx = (a < 0 ? width - 1 : 0) + (b < 0 ? height - 1 : 0)
    let ty = (c < 0 ? width - 1 : 0) + (d < 0 ? height - 1 : 0)
    return (tx + ty * targetStride, a + c * targetStride, b + d * targetStride)
  }
}
