/// A profile that cannot be used, with the file and the JSON path of the field at fault.
public struct ProfileError: Error, CustomStringConvertible, Equatable {
  public var file: String
  public var path: String
  public var message: String

  public init(file: String, path: String, message: String) {
    self.file = file
    self.path = path
    self.message = message
  }

  public var description: String { "\(file): \(path): \(message)" }
}
