import HLSPackCore

/// Rules about reaching a package's files and keys, whichever way it is read.
extension VerifyRules {
  public static let packageOutsideBoundary = VerifyRule(
    id: "package.outside-boundary", severity: .must, source: "docs/verify.md, What it reads (the package folder)",
    origin: .hlspack, owner: .publisher,
    summary:
      "a URI leads outside the package folder (above it, an absolute path, a symbolic link or a redirect to another host); it was not read"
  )
}
