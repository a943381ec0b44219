/// Where a movie fragment's first sample lies, read from its own moof.
public enum FragmentLayout {
  /// The length of the prefix of `fragment` (moof + mdat) that holds the moof
  /// and the first track's first sample; nil when the bytes are not a fragment.
  public static func firstSampleEnd(_ fragment: [UInt8]) -> Int? {
    guard let boxes = try? ISOBox.children(of: fragment, in: 0..<fragment.count, context: "fragment"),
      let moof = boxes.first(where: { $0.type == "moof" }),
      let traf = try? ISOBox.children(of: fragment, in: moof.payloadRange, context: "moof").first(where: {
        $0.type == "traf"
      }),
      let layout = try? TrackFragmentLayout(fragment, moof: moof, traf: traf, trexDefaultSize: { _ in nil })
    else { return nil }
    return layout.samples.first?.upperBound
  }
}
