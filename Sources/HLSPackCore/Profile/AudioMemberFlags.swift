/// DEFAULT and AUTOSELECT of alternate audio renditions. Groups of one TYPE
/// have the same members with the same attributes (RFC 8216bis §4.4.6.1.1,
/// RFC 8216bis §4.4.6.1.1), and a rendition's counterparts in the other groups (same
/// NAME and LANGUAGE) are the same member, so a flag set on one applies to
/// all of them, as Shaka Packager's `--default_language` marks that language
/// in every group. Flags that contradict each other are refused rather than
/// one of them silently winning.
enum AudioMemberFlags {
  /// What the profile sets on one rendition; nil where the field is absent.
  struct Given {
    var isDefault: Bool?
    var autoselect: Bool?
  }

  static func resolve(_ renditions: inout [AudioRendition], given: [Given], file: String) throws {
    let all = renditions
    let counterparts = Dictionary(grouping: all.indices) { [all[$0].name, all[$0].language] }
    /// Indices of the rendition's member in every group, itself included, in profile order.
    func member(_ i: Int) -> [Int] { counterparts[[all[i].name, all[i].language]] ?? [i] }
    func label(_ i: Int) -> String { "\"\(all[i].name)\" (\(all[i].language)) in group \(all[i].groupID)" }
    func agreed(_ field: String, _ value: (Given) -> Bool?) throws -> [Bool?] {
      try all.indices.map { i in
        let set = member(i).compactMap { j in value(given[j]).map { (index: j, value: $0) } }
        guard let first = set.first else { return nil }
        if let other = set.first(where: { $0.value != first.value }) {
          throw ProfileError(
            file: file, path: "$.audio[\(other.index)].\(field)",
            message: "is \(other.value), but $.audio[\(first.index)] sets \(first.value) on \(label(first.index)): "
              + "a member's counterparts in every audio group (same name and language) have the same \(field) (RFC 8216bis §4.4.6.1.1)"
          )
        }
        return first.value
      }
    }
    let defaults = try agreed("default") { $0.isDefault }
    let autoselects = try agreed("autoselect") { $0.autoselect }
    for i in all.indices {
      renditions[i].isDefault = defaults[i] ?? false
      renditions[i].autoselect = autoselects[i] ?? true
      if renditions[i].isDefault, !renditions[i].autoselect {
        let field = member(i).first { given[$0].autoselect == false } ?? i
        throw ProfileError(
          file: file, path: "$.audio[\(field)].autoselect",
          message: "must be true: \(label(i)) is the default (RFC 8216bis §4.4.6.1), and counterparts share the flag")
      }
    }

    var groups: [String] = []
    for rendition in all where !groups.contains(rendition.groupID) { groups.append(rendition.groupID) }
    for group in groups {
      let members = all.indices.filter { all[$0].groupID == group }
      let marked = members.filter { renditions[$0].isDefault }
      if marked.count > 1 {
        let field = member(marked[1]).first { given[$0].isDefault == true } ?? marked[1]
        throw ProfileError(
          file: file, path: "$.audio[\(field)].default",
          message:
            "makes \(label(marked[1])) a default, but \(label(marked[0])) already is (one per group; counterparts share the flag)"
        )
      }
      // None marked: the member that comes first in the profile, so groups
      // with the same members pick the same one; never one set to false.
      let candidates = members.filter { defaults[$0] == nil && renditions[$0].autoselect }
      if marked.isEmpty, let pick = candidates.min(by: { (member($0).first ?? $0) < (member($1).first ?? $1) }) {
        renditions[pick].isDefault = true
      }
    }
  }
}
