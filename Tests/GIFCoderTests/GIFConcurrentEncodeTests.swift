import Dispatch
import GIFCoder
import Testing
import WebImageCore

/// GIF encoding on many threads at once writes the same bytes as encoding one image at a time.
///
/// giflib's colour quantiser keeps the axis it sorts on in a process-wide variable, so two
/// quantisations running at once can sort each other's colours on the wrong axis and write a
/// different palette. The coder says it is safe to call from any thread, so the shim must
/// serialise the quantiser.
///
/// The check runs in a process of its own: the test process holds two copies of the shim, this
/// target's and the one inside `libWebImageGIF.so` that the plugin suites load, each with its own
/// lock around the one libgif, so an encode through the plugin at the same moment changed this
/// test's palettes (CI, 2026-11-29). A host loads the plugin's copy only.
@Suite struct GIFConcurrentEncodeTests {

    /// A 96 × 96 image with thousands of colours, so the quantiser sorts long runs on every axis;
    /// `variant` changes which channel varies fastest, so images sort on different axes.
    static func image(variant: Int) throws -> PixelBuffer {
        let side = 96
        let buffer = try PixelBuffer(width: side, height: side, format: .rgba8)
        for y in 0..<side {
            let row = buffer.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<side {
                let channels = [
                    UInt8(x * 255 / (side - 1)), UInt8(y * 255 / (side - 1)), UInt8((x * y + variant * 37) % 256),
                ]
                for channel in 0..<3 { row[x * 4 + channel] = channels[(channel + variant) % 3] }
                row[x * 4 + 3] = 255
            }
        }
        return buffer
    }

    @Test func encodingOnManyThreadsWritesTheSameBytesAsOneAtATime() async {
        await #expect(processExitsWith: .success) {
            let variants = 6
            let images = try (0..<variants).map { try GIFConcurrentEncodeTests.image(variant: $0) }
            let request = EncodeRequest(format: "gif")
            let coder = GIFImageCoder()
            let expected = try images.map { Array(try coder.encode($0, request: request)) }
            try #require(Set(expected).count == variants)
            let mismatches = TrackedMutex<[Int]>([])
            let failures = TrackedMutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: variants * 8) { iteration in
                let variant = iteration % variants
                do {
                    for _ in 0..<4 where Array(try coder.encode(images[variant], request: request)) != expected[variant]
                    {
                        mismatches.withLock { $0.append(variant) }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            try #require(failures.withLock { $0 } == [])
            try #require(mismatches.withLock { $0 } == [])
        }
    }
}
