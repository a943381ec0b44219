/// A frame rate as an exact fraction, so frame times and IDR positions never drift.
public struct FrameRate: Sendable, Equatable, CustomStringConvertible {
  public var numerator: Int
  public var denominator: Int

  /// The largest numerator or denominator a profile may give.
  public static let largestTerm = 1_000_000

  public init(numerator: Int, denominator: Int) {
    self.numerator = numerator
    self.denominator = denominator
  }

  public var value: Double { Double(numerator) / Double(denominator) }
  public var description: String { denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)" }

  /// The broadcast or film rate within 0.03 % of `value` (half the gap
  /// between 29.97 and 30), if any: rounded timestamps and phone clocks put
  /// 29.97 or 30 fps material a little off.
  public static func nominal(near value: Double) -> FrameRate? {
    let rates = [
      (24000, 1001), (24, 1), (25, 1), (30000, 1001), (30, 1), (48, 1), (50, 1), (60000, 1001), (60, 1), (100, 1),
      (120000, 1001), (120, 1),
    ]
    .map { FrameRate(numerator: $0.0, denominator: $0.1) }
    return rates.first { abs($0.value - value) <= $0.value * 0.0003 }
  }
}
