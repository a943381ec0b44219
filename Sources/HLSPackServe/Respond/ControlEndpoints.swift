import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The server's own endpoints: `POST /_hlspack/scenario` replaces the
/// scenario (the body is a scenario file; its clock and counters restart),
/// `GET /_hlspack/stats` returns the counts and the body bytes in memory, `POST /_hlspack/stats/reset` clears them.
struct ControlEndpoints {
  static let prefix = "/_hlspack/"

  let scenario: ScenarioState
  let stats: ServeStats
  let budget: BodyBudget

  func respond(to request: inout Request, path: String) async throws -> Response {
    switch (request.method, path) {
    case (.post, "/_hlspack/scenario"), (.put, "/_hlspack/scenario"):
      let body: ByteBuffer
      do {
        body = try await request.collectBody(upTo: Scenario.maximumBytes)
      } catch {
        return FixtureResponder.plain(.contentTooLarge, "a scenario is at most \(Scenario.maximumBytes) bytes\n")
      }
      do {
        let loaded = try Scenario.load(Data(body.readableBytesView), source: "POST \(path)")
        scenario.replace(with: loaded)
        return FixtureResponder.plain(.ok, "scenario replaced: \(loaded.rules.count) rules\n")
      } catch {
        return FixtureResponder.plain(.badRequest, "\(error)\n")
      }
    case (.get, "/_hlspack/stats"):
      var headers = HTTPFields()
      headers[.contentType] = "application/json"
      headers[.cacheControl] = "no-store"
      return Response(
        status: .ok, headers: headers,
        body: .init(byteBuffer: ByteBuffer(bytes: try stats.json(bodyBytesHeld: budget.held))))
    case (.post, "/_hlspack/stats/reset"):
      stats.reset()
      return FixtureResponder.plain(.ok, "stats cleared\n")
    default:
      return FixtureResponder.plain(.notFound, "unknown control endpoint \(path)\n")
    }
  }
}
