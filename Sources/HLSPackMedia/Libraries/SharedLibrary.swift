import Glibc

/// A C library that only `hlspack fixture` uses, opened with dlopen(3) when
/// the command first needs it. Linking it would make the dynamic loader map
/// it, and every library it brings, into every command at start (libavfilter
/// alone brings 31), where packaging, verify and serve never use them.
///
/// The library stays open for the life of the process: the function
/// addresses taken from it are kept in static tables (`FilterLibrary`,
/// `ZBarLibrary`, `QREncodeLibrary`).
struct SharedLibrary: @unchecked Sendable {
  /// The SONAME opened, such as `libavfilter.so.8`.
  let name: String
  /// What needs the library, for the error when it is missing.
  let neededBy: String
  /// dlopen's handle; never closed, so it and every address from it stay valid.
  private let handle: UnsafeMutableRawPointer

  /// Opens `name` (a SONAME, found the way the dynamic loader finds linked libraries).
  init(opening name: String, neededBy: String, package: String) throws {
    self.name = name
    self.neededBy = neededBy
    guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
      throw SharedLibraryError(
        "\(neededBy) needs \(name), which could not be loaded (\(Self.lastError())); "
          + "install Debian's \(package) (scripts/bootstrap --runtime)")
    }
    self.handle = handle
  }

  /// The function `symbol` as a C function value of type `Function`, which
  /// must be the function's C type (the module maps' shims declare each one
  /// from the library's own header, so the two cannot drift apart).
  func function<Function>(_ symbol: String) throws -> Function {
    guard let address = dlsym(handle, symbol) else {
      throw SharedLibraryError(
        "\(neededBy) needs \(symbol) from \(name), which has no such function (\(Self.lastError()))")
    }
    return unsafeBitCast(address, to: Function.self)
  }

  private static func lastError() -> String {
    guard let message = dlerror() else { return "no reason given" }
    return String(cString: message)
  }
}

/// A library of `hlspack fixture` that is missing, or lacks a function.
struct SharedLibraryError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
