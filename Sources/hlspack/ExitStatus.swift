import ArgumentParser

/// The exit codes documented in docs/ (each command's page, "Exit status").
enum ExitStatus {
  /// Every asset was published.
  static let success = ExitCode(0)
  /// At least one input failed; the others were published.
  static let assetFailed = ExitCode(1)
  /// The profile or the arguments are unusable; nothing was attempted.
  static let invalidProfile = ExitCode(2)
  /// Interrupted by SIGINT or SIGTERM; staging folders were removed.
  static let interrupted = ExitCode(130)
}
