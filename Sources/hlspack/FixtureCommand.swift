import ArgumentParser

struct FixtureCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fixture",
    abstract: "Labelled test content for player teams: a matrix of packages, and a reader of what a player showed.",
    discussion: "See docs/fixture.md.",
    subcommands: [FixtureMakeCommand.self, FixtureCheckCommand.self])
}
