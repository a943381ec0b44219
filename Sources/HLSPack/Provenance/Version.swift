public enum HLSPackVersion {
  public static let current = "0.1.0"
}
