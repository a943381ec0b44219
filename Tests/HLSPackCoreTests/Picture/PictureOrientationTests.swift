import Foundation
import Testing

@testable import HLSPackCore

/// Display matrices to orientations, decided as FFmpeg's autorotation decides.
@Suite struct PictureOrientationTests {
  /// What av_display_rotation_get reports for a matrix (a, b, c, d).
  static func counterclockwise(_ m: [Int32]) -> Double {
    let scale0 = hypot(Double(m[0]), Double(m[3])), scale1 = hypot(Double(m[1]), Double(m[4]))
    return -atan2(Double(m[1]) / scale1, Double(m[0]) / scale0) * 180 / .pi
  }

  static func matrix(_ a: Int32, _ b: Int32, _ c: Int32, _ d: Int32) -> [Int32] {
    [a << 16, b << 16, 0, c << 16, d << 16, 0, 0, 0, 0x4000_0000]
  }

  @Test(arguments: [
    (matrix(1, 0, 0, 1), PictureOrientation.upright),
    (matrix(-1, 0, 0, 1), .flippedLeftRight),
    (matrix(1, 0, 0, -1), .flippedTopBottom),
    (matrix(-1, 0, 0, -1), .halfTurn),
    (matrix(0, 1, -1, 0), .clockwise),
    (matrix(0, -1, 1, 0), .counterclockwise),
    (matrix(0, 1, 1, 0), .transposed),
    (matrix(0, -1, -1, 0), .antiTransposed),
  ])
  func displayMatrices(matrix: [Int32], expected: PictureOrientation) {
    #expect(
      PictureOrientation(displayMatrix: matrix, counterclockwiseDegrees: Self.counterclockwise(matrix)) == expected)
  }

  /// The steps turn a 3x2 plane as the name says.
  @Test(arguments: [
    (PictureOrientation.upright, 3, [0, 1, 2, 3, 4, 5]),
    (.flippedLeftRight, 3, [2, 1, 0, 5, 4, 3]),
    (.flippedTopBottom, 3, [3, 4, 5, 0, 1, 2]),
    (.halfTurn, 3, [5, 4, 3, 2, 1, 0]),
    (.clockwise, 2, [3, 0, 4, 1, 5, 2]),
    (.counterclockwise, 2, [2, 5, 1, 4, 0, 3]),
    (.transposed, 2, [0, 3, 1, 4, 2, 5]),
    (.antiTransposed, 2, [5, 2, 4, 1, 3, 0]),
  ])
  func stepsTurnAPlane(orientation: PictureOrientation, targetWidth: Int, expected: [Int]) {
    let (origin, xStep, yStep) = orientation.steps(width: 3, height: 2, targetStride: targetWidth)
    var target = [Int](repeating: -1, count: 6)
    for y in 0..<2 {
      for x in 0..<3 { target[origin + x * xStep + y * yStep] = y * 3 + x }
    }
    #expect(target == expected, "\(orientation)")
  }

  @Test func anUnreadableMatrixLeavesThePictureAsItIs() {
    #expect(PictureOrientation(displayMatrix: [0, 0, 0, 0, 0, 0, 0, 0, 0], counterclockwiseDegrees: .nan) == .upright)
  }
}

/// Where a padded picture sits: centred, even sizes and offsets, whole frame otherwise.
@Suite struct PictureFitTests {
  @Test func placements() {
    #expect(PictureFit.pad.placement(width: 640, height: 360, aspect: 640.0 / 272) == (0, 44, 640, 272))
    #expect(PictureFit.pad.placement(width: 640, height: 360, aspect: 4.0 / 3) == (80, 0, 480, 360))
    #expect(PictureFit.pad.placement(width: 640, height: 360, aspect: 9.0 / 16) == (218, 0, 202, 360))
    #expect(PictureFit.pad.placement(width: 640, height: 360, aspect: 16.0 / 9) == (0, 0, 640, 360))
    #expect(PictureFit.pad.placement(width: 640, height: 360, aspect: nil) == (0, 0, 640, 360))
    #expect(PictureFit.stretch.placement(width: 640, height: 360, aspect: 4.0 / 3) == (0, 0, 640, 360))
  }
}
