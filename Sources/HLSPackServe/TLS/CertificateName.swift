import Foundation

/// A `--tls-name` as the server certificate holds it. A certificate's DNS
/// names are ASCII (RFC 5280 section 4.2.1.6), so an internationalised name
/// is written as IDNA makes it (`ünï.example` → `xn--n-nga1b.example`), as a
/// client looks it up.
enum CertificateName {
  static func ascii(_ name: String) throws -> String {
    var ascii = name
    if !name.utf8.allSatisfy({ $0 < 0x80 }) {
      var components = URLComponents()
      components.host = name
      ascii = components.encodedHost ?? ""
    }
    guard !ascii.isEmpty, ascii.utf8.allSatisfy(isHostNameByte) else { throw ServeError.tlsName(name) }
    return ascii
  }

  /// Letters, digits, `-` and `.`; `*` for a wildcard and `_` as some names in use have.
  private static func isHostNameByte(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
      || "-.*_".utf8.contains(byte)
  }
}
