import Foundation

/// DIR/index.html: every fixture with what it tests, a native `<video>`
/// player (Safari plays HLS natively; other browsers show the link), the
/// playlist URL, its keys, and how to serve it. Self-contained: no external
/// scripts, styles or fonts, and an empty inline icon: without one a browser
/// asks for /favicon.ico, which the folder does not have (a 404 in its console).
enum FixtureCatalogue {
  static func html(_ database: FixtureDatabase) -> String {
    var page = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <title>hlspack fixtures</title>
      <link rel="icon" href="data:,">
      <style>
      body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; padding: 0 1em; }
      code, pre { font-family: ui-monospace, monospace; }
      section { border-top: 1px solid #ccc; margin-top: 2em; }
      video { width: 100%; max-width: 40em; background: #000; }
      .features span { background: #eef; border-radius: 3px; margin-right: .4em; padding: 0 .3em; }
      table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: .2em .5em; text-align: left; }
      </style>
      </head>
      <body>
      <h1>hlspack fixtures</h1>
      <p>\(database.fixtures.count) fixtures, \(format(database.duration)) s each at \(database.fps) fps. Every frame shows
      its rendition, frame number and media time, as text and as a QR code reading
      <code>\(escape(database.qrPayload))</code>. Sync events (top eighth white, 1 kHz beep) at
      \(database.syncEvents.isEmpty ? "none" : database.syncEvents.map(format).joined(separator: ", ")) s.
      Serve this folder with <code>hlspack serve .</code> (run in this folder) and open the playlists below.</p>
      <ul>

      """
    for fixture in database.fixtures {
      page += "<li><a href=\"#\(escape(fixture.id))\">\(escape(fixture.id))</a>: \(escape(fixture.description))</li>\n"
    }
    page += "</ul>\n"
    for fixture in database.fixtures { page += section(fixture) }
    page += "</body>\n</html>\n"
    return page
  }

  private static func section(_ fixture: FixtureDatabase.Fixture) -> String {
    let master = escape(fixture.master)
    var html = """
      <section id="\(escape(fixture.id))">
      <h2>\(escape(fixture.id))</h2>
      <p>\(escape(fixture.description))</p>
      <p class="features">\(fixture.features.map { "<span>\(escape($0))</span>" }.joined())</p>
      <p>Playlist: <a href="\(master)"><code>\(master)</code></a> (\(escape(fixture.method)), \(escape(fixture.container)), \(escape(fixture.videoCodec))\(fixture.frames.map { ", \($0) frames" } ?? ""))</p>
      <video controls preload="none" src="\(master)"></video>
      <pre>hlspack serve .\(fixture.scenario.map { " --scenario " + escape($0) } ?? "")</pre>

      """
    if !fixture.keys.isEmpty {
      html += "<table><tr><th>key URI</th><th>key (hex, test key)</th></tr>\n"
      for (uri, key) in fixture.keys.sorted(by: { $0.key < $1.key }) {
        html += "<tr><td><code>\(escape(uri))</code></td><td><code>\(escape(key))</code></td></tr>\n"
      }
      html += "</table>\n"
    }
    return html + "</section>\n"
  }

  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }

  static func format(_ value: Double) -> String { String(format: "%.3f", value) }
}
