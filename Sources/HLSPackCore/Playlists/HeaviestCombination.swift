/// A variant's BANDWIDTH and AVERAGE-BANDWIDTH from its renditions' rates:
/// "the largest sum of peak [average] segment bit rates that is produced by
/// any playable combination of Renditions" (RFC 8216bis §4.4.6.2, §4.4.6.2.1).
/// The one definition of that rule: the packager declares what it returns
/// (`MultivariantPlan`) and verify checks declared values against it, each
/// rate measured by `BandwidthMeter`, so the two cannot disagree.
///
/// A combination is the variant's own media playlist and one member of each
/// rendition group it names. A playlist is fetched once however many roles it
/// plays, so one already counted adds nothing (FFmpeg's audio-only variant is
/// also its own AUDIO group's only rendition). A variant whose playlist is a
/// member of a group it names (an audio-only variant whose URI is one of its
/// AUDIO renditions, as `audio_only_variants` writes it) is that rendition:
/// choosing another member plays that one instead, so the group counts its
/// heaviest member in place of the variant's playlist. Peak and average are
/// maximised each on its own.
public enum HeaviestCombination {
  public struct Rates: Sendable, Equatable {
    /// bit/s, as `BandwidthMeter.peak` and `BandwidthMeter.average` give them.
    public var peak: Int
    public var average: Int

    public init(peak: Int, average: Int) {
      self.peak = peak
      self.average = average
    }
  }

  /// `variant`: the variant's media playlist and its rates; `groups`: the
  /// members of each rendition group it names (a group whose members have no
  /// playlist of their own is empty). Saturates at `Int.max`.
  public static func rates<Playlist: Hashable>(
    variant: (playlist: Playlist, rates: Rates), groups: [[(playlist: Playlist, rates: Rates)]]
  ) -> Rates {
    let groups = groups.filter { !$0.isEmpty }
    func largest(_ rate: (Rates) -> Int) -> Int {
      largestSum(
        variant: (variant.playlist, rate(variant.rates)),
        groups: groups.map { group in group.map { ($0.playlist, rate($0.rates)) } })
    }
    return Rates(peak: largest(\.peak), average: largest(\.average))
  }

  /// The same, each playlist's rates looked up by `rates`; nil when one of them cannot be measured.
  public static func rates<Playlist: Hashable>(
    variant: Playlist, groups: [[Playlist]], rates: (Playlist) -> Rates?
  ) -> Rates? {
    guard let own = rates(variant) else { return nil }
    var measured: [[(playlist: Playlist, rates: Rates)]] = []
    for members in groups {
      var group: [(playlist: Playlist, rates: Rates)] = []
      for playlist in members {
        guard let found = rates(playlist) else { return nil }
        group.append((playlist, found))
      }
      measured.append(group)
    }
    return Self.rates(variant: (variant, own), groups: measured)
  }

  /// One measure's largest sum over the combinations.
  private static func largestSum<Playlist: Hashable>(
    variant: (playlist: Playlist, rate: Int), groups: [[(playlist: Playlist, rate: Int)]]
  ) -> Int {
    let standsIn = groups.contains { group in group.contains { $0.playlist == variant.playlist } }
    var counted: Set<Playlist> = standsIn ? [] : [variant.playlist]
    var total = standsIn ? 0 : variant.rate
    for group in groups {
      func added(_ member: (playlist: Playlist, rate: Int)) -> Int {
        counted.contains(member.playlist) ? 0 : member.rate
      }
      guard let chosen = group.max(by: { added($0) < added($1) }) else { continue }
      let (sum, overflow) = total.addingReportingOverflow(added(chosen))
      total = overflow ? Int.max : sum
      counted.insert(chosen.playlist)
    }
    return total
  }
}
