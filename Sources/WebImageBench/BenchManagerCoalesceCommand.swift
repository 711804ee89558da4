import ArgumentParser
import Foundation
import WebImageCLISupport
import WebImageCore

/// `webimage-bench manager coalesce URL`: many identical requests at once through a fresh
/// manager; reports the downloads and decodes it performed.
struct BenchManagerCoalesceCommand: PluginHostCommand {
    static let configuration = CommandConfiguration(
        commandName: "coalesce", abstract: "Identical concurrent requests: downloads and decodes performed.")

    @OptionGroup var manager: ManagerOptions

    var pluginOptions: PluginOptions { manager.pluginOptions }

    @Argument(help: "The URL requested.")
    var url: String

    @Option(help: "Identical requests at once.")
    var count = 100

    func run() throws {
        let host = pluginOptions.makeHost()
        let imageManager = try manager.makeManager(host: host)
        let context = try manager.context(host: host)
        let url = url
        let count = count
        let started = ContinuousClock.now
        let failures = runBlocking { () -> Int in
            let failures = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<count {
                    group.addTask { (try? await imageManager.image(for: url, context: context)) == nil }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            await imageManager.waitUntilIdle()
            return failures
        }
        let elapsed = seconds(ContinuousClock.now - started) * 1000
        print(
            "\(count) identical requests: \(imageManager.counters.downloads) download, \(imageManager.counters.decodes) decode, "
                + "\(failures) failed, " + String(format: "%.1f ms", elapsed))
        if failures > 0 { throw CLIError("\(failures) requests failed") }
    }
}
