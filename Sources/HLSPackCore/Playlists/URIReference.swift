/// URIs as written in playlists. A relative reference resolves against the
/// playlist that contains it (RFC 3986 §5.2), so a playlist in another folder
/// must write the same resource differently.
public enum URIReference {
  /// The scheme of an absolute URI (RFC 3986 §3.1), lower-cased; nil for a
  /// relative reference. A Windows-like `c:` is not expected in playlists.
  public static func scheme(of uri: String) -> String? {
    guard let colon = uri.firstIndex(of: ":") else { return nil }
    let head = String(uri[..<colon])
    guard !head.contains(where: { "/?#".contains($0) }), KeyURITemplate.isValidScheme(head) else { return nil }
    return head.lowercased()
  }

  /// `reference`, written in a playlist in the package folder `folder` ("" for
  /// the root, else e.g. "audio/en"), as a playlist at the package root writes
  /// it to name the same resource. URIs with a scheme and absolute paths name
  /// the same resource from anywhere and come back unchanged; a reference that
  /// climbs above the package keeps its leading "../".
  public static func fromPackageRoot(_ reference: String, writtenIn folder: String) -> String {
    guard scheme(of: reference) == nil, !reference.hasPrefix("/") else { return reference }
    // Query and fragment are not path segments.
    let pathEnd = reference.firstIndex { $0 == "?" || $0 == "#" } ?? reference.endIndex
    var resolved = folder.split(separator: "/")
    var above = 0
    for segment in reference[..<pathEnd].split(separator: "/", omittingEmptySubsequences: false) {
      switch segment {
      case ".": continue
      case "..": if resolved.isEmpty { above += 1 } else { resolved.removeLast() }
      default: resolved.append(segment)
      }
    }
    return String(repeating: "../", count: above) + resolved.joined(separator: "/") + reference[pathEnd...]
  }
}
