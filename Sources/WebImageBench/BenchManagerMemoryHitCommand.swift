import ArgumentParser
import Foundation
import WebImageCLISupport
import WebImageCore

/// `webimage-bench manager memory-hit`: `try await manager.image(for: url)` answered from the
/// memory cache plugin (URL → key → memory cache → image), timed call by call.
struct BenchManagerMemoryHitCommand: PluginHostCommand {
    static let configuration = CommandConfiguration(
        commandName: "memory-hit", abstract: "Median time of a memory-cache hit through the manager.")

    @OptionGroup var manager: ManagerOptions

    var pluginOptions: PluginOptions { manager.pluginOptions }

    @Option(help: "Timed calls, after as many warm-up calls.")
    var iterations = 100_000

    func run() throws {
        let imageManager = try manager.makeManager(host: pluginOptions.makeHost())
        guard let cache = imageManager.cache as? ImageCache else { throw CLIError("the manager has no image cache") }
        let url = URL(string: "http://127.0.0.1:1/bench/memory-hit.png")!
        let pixels = try PixelBuffer(width: 64, height: 64, format: .rgba8)
        cache.storeInMemory(DecodedImage(pixels: pixels, format: "png"), forKey: url.absoluteString)
        let iterations = iterations
        let times = runBlocking { () -> [Double] in
            var times: [Double] = []
            times.reserveCapacity(iterations)
            for round in 0..<(2 * iterations) {
                let start = ContinuousClock.now
                let result = try? await imageManager.image(for: url)
                let elapsed = ContinuousClock.now - start
                precondition(result?.cacheType == .memory, "the image left the memory cache")
                if round >= iterations { times.append(seconds(elapsed) * 1e6) }
            }
            return times.sorted()
        }
        let median = times[times.count / 2]
        let p90 = times[times.count * 9 / 10]
        print(
            String(
                format: "memory hit through the manager: median %.2f µs, p90 %.2f µs, min %.2f µs (%d calls)", median,
                p90, times[0], iterations))
    }
}
