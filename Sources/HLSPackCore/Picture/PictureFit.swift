/// How a source picture of another shape than its rung fills the rung's frame.
public enum PictureFit: String, Sendable, Equatable, CaseIterable {
  /// The whole frame: the picture is stretched to the rung's shape.
  case stretch
  /// The picture keeps its shape, centred, with black bars (letterbox or pillarbox).
  case pad

  /// Where the picture goes in a `width`×`height` frame, for a picture
  /// `aspect` (width over height, as shown) wide: even sizes and offsets, as
  /// 4:2:0 chroma needs. The whole frame when stretching or when the shapes match.
  public func placement(width: Int, height: Int, aspect: Double?) -> (x: Int, y: Int, width: Int, height: Int) {
    guard self == .pad, let aspect, aspect.isFinite, aspect > 0 else { return (0, 0, width, height) }
    func even(_ value: Double) -> Int { max(2, Int((value / 2).rounded()) * 2) }
    let (w, h) =
      aspect > Double(width) / Double(height)
      ? (width, min(height, even(Double(width) / aspect))) : (min(width, even(Double(height) * aspect)), height)
    return ((width - w) / 4 * 2, (height - h) / 4 * 2, w, h)
  }
}
