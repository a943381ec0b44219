/// Hides credentials in the request log: the Authorization scheme stays
/// (`Bearer ***`), cookie names stay and their values go, and every query
/// value goes, since signed URLs carry their tokens there.
enum SecretMask {
  static let hidden = "***"

  static func header(name: String, value: String) -> String {
    switch name.lowercased() {
    case "authorization", "proxy-authorization":
      guard let space = value.firstIndex(of: " ") else { return hidden }
      return "\(value[..<space]) \(hidden)"
    case "cookie":
      return value.split(separator: ";").map { pair in
        let name = pair.split(separator: "=", maxSplits: 1).first.map { $0.trimmingSpaces } ?? ""
        return "\(name)=\(hidden)"
      }.joined(separator: "; ")
    case let other where other.contains("token") || other.contains("secret") || other.contains("api-key"):
      return hidden
    default:
      return value
    }
  }

  static func query(_ query: String) -> String {
    query.split(separator: "&", omittingEmptySubsequences: false).map { pair in
      guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
      return "\(pair[..<equals])=\(hidden)"
    }.joined(separator: "&")
  }
}
