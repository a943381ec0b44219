extension StringProtocol {
  /// Without leading and trailing spaces, tabs and carriage returns (the text
  /// formats read here are line based; no Foundation needed).
  func trimmingSpaces() -> String {
    let spaces: Set<Character> = [" ", "\t", "\r"]
    return String(drop { spaces.contains($0) }.reversed().drop { spaces.contains($0) }.reversed())
  }
}
