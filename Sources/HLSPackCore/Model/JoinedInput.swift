import Foundation

/// An asset joined from several sources, packaged one after another into the
/// same renditions (a clear pre-roll, then the encrypted content): a profile
/// `inputs` entry `{"asset": NAME, "parts": [...]}`.
public struct JoinedInput: Sendable, Equatable {
  /// One source of the asset, in playback order.
  public struct Part: Sendable, Equatable {
    public var file: URL
    /// `"encryption": "none"`: this part's segments stay clear, whatever the
    /// profile's encryption (`EXT-X-KEY:METHOD=NONE` where one follows encrypted segments).
    public var clear: Bool
    /// Where the profile names it, `inputs[i].parts[j].file`, for messages.
    public var field: String

    public init(file: URL, clear: Bool, field: String) {
      self.file = file
      self.clear = clear
      self.field = field
    }
  }

  /// The asset's folder name.
  public var asset: String
  public var parts: [Part]

  public init(asset: String, parts: [Part]) {
    self.asset = asset
    self.parts = parts
  }
}
