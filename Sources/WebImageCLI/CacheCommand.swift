import ArgumentParser

/// `webimage cache`: inspect and change a disk cache through its backend plugin.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect and change an image disk cache (the disk or redis plugin).",
        discussion: """
            Options reach the backend plugin as --option key=value. disk: max-size (bytes), max-count, \
            max-age (seconds), expire-type (access, modification, creation), trim-ratio. redis: url \
            (redis://HOST:PORT[/DB]), timeout-ms, max-value-size, max-age.
            """,
        subcommands: [
            CacheInfoCommand.self, CacheListCommand.self, CacheGetCommand.self, CachePutCommand.self,
            CacheRemoveCommand.self, CacheClearCommand.self, CacheTrimCommand.self, CachePathCommand.self,
        ])
}
