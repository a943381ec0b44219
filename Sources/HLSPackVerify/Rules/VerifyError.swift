/// The package cannot be checked at all: its entry playlist cannot be read.
public struct VerifyError: Error, CustomStringConvertible {
  public var description: String
}
