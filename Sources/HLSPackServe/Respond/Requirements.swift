import Foundation
import HTTPTypes
import Hummingbird

/// Checks a request against a rule's required header, cookie or query token.
enum RequirementCheck: Equatable {
  case passed
  /// 401: the credential is absent.
  case missing(String)
  /// 403: the credential is there with another value.
  case wrong(String)

  static func check(_ requirements: [Requirement], headers: HTTPFields, query: String?) -> RequirementCheck {
    for requirement in requirements {
      let found: String?
      let label: String
      if let header = requirement.header {
        label = "header \(header)"
        found = HTTPField.Name(header).flatMap { headers[values: $0].first }
      } else if let cookie = requirement.cookie {
        label = "cookie \(cookie)"
        found = cookies(headers)[cookie]
      } else if let parameter = requirement.query {
        label = "query \(parameter)"
        found = queryItems(query)[parameter]
      } else {
        continue
      }
      guard let found else { return .missing(label) }
      if let expected = requirement.value, expected != found { return .wrong(label) }
    }
    return .passed
  }

  private static func cookies(_ headers: HTTPFields) -> [String: String] {
    var result: [String: String] = [:]
    for line in headers[values: .cookie] {
      for pair in line.split(separator: ";") {
        let parts = pair.split(separator: "=", maxSplits: 1)
        guard parts.count == 2 else { continue }
        result[parts[0].trimmingSpaces] = parts[1].trimmingSpaces
      }
    }
    return result
  }

  static func queryItems(_ query: String?) -> [String: String] {
    var result: [String: String] = [:]
    for pair in (query ?? "").split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1)
      guard let name = parts.first.flatMap({ String($0).removingPercentEncoding }) else { continue }
      let value = parts.count == 2 ? String(parts[1]).replacingOccurrences(of: "+", with: " ") : ""
      result[name] = value.removingPercentEncoding ?? value
    }
    return result
  }
}
