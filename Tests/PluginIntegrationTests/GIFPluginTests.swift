import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// The real GIF `.so`: animations through the C ABI (open, durations, lazy composited frames, encode).
@Suite struct GIFPluginTests {
    let folder: PluginsFolder
    let manager: CodersManager

    init() throws {
        folder = try PluginsFolder()
        try folder.addBundled(manifest: "gif.json", library: "libWebImageGIF.so")
        try folder.addPNGAndJPEG()
        manager = PluginHost(searchPath: PluginSearchPath(directories: [folder.path])).makeCodersManager()
    }

    @Test func anAnimationCrossesTheABIFrameByFrame() throws {
        let bytes = try Fixture.bytes("gif/anim.gif")
        let coalesced = try Fixture.bytes("gif/anim.coalesced.rgba")
        let animation = try manager.openAnimation(bytes)
        #expect(animation.info.frameCount == 4 && animation.info.loopCount == 3)
        #expect((0..<4).map { animation.frameDuration(at: $0) } == [50, 100, 100, 200])
        let frame3 = try manager.decodeFrame(3, of: animation).pixels.packedBytes()
        let expected = Array(coalesced[(3 * 192)..<(4 * 192)])
        for pixel in stride(from: 0, to: expected.count, by: 4) {
            let alpha = expected[pixel + 3]
            #expect(frame3[pixel + 3] == alpha)
            if alpha != 0 { #expect(Array(frame3[pixel..<(pixel + 3)]) == Array(expected[pixel..<(pixel + 3)])) }
        }
        let still = try manager.decode(bytes)
        #expect(still.format == "gif" && still.width == 8 && still.height == 6)
    }

    /// In a worker the plugin reads the file from the shared block the host filled once, for
    /// the animation's life: every frame, in any order, is the in-process plugin's.
    @Test func anAnimationInAWorkerHasTheInProcessFrames() throws {
        let bytes = try Fixture.bytes("gif/anim.gif")
        let inProcess = PluginHost(
            searchPath: PluginSearchPath(directories: [folder.path]), isolation: PluginIsolation(policy: .none)
        ).makeCodersManager()
        let inWorker = PluginHost(
            searchPath: PluginSearchPath(directories: [folder.path]), isolation: PluginIsolation(policy: .all)
        ).makeCodersManager()
        #expect(try inWorker.coder(forFormat: "gif").coder is IsolatedCoder)
        let local = try inProcess.openAnimation(bytes)
        let isolated = try inWorker.openAnimation(bytes)
        for index in [0, 1, 2, 3, 1, 3, 0] {
            let expected = try inProcess.decodeFrame(index, of: local).pixels.packedBytes()
            #expect(try inWorker.decodeFrame(index, of: isolated).pixels.packedBytes() == expected, "frame \(index)")
        }
    }

    @Test func aCorruptFrameIsAnErrorForThatFrameOnly() throws {
        let animation = try manager.openAnimation(try Fixture.bytes("gif/bad-corrupt-frame1.gif"))
        let error = try #require(throws: ImageCodingError.self) { try manager.decodeFrame(1, of: animation) }
        #expect(error.kind == .corruptData)
        #expect(try manager.decodeFrame(2, of: animation).width == 8)
    }

    @Test func pngToAnimatedGIFAndBack() throws {
        let still = try manager.decode(try Fixture.bytes("png/rgba8.png"))
        let frames = [
            AnimationFrame(image: still.pixels, durationMilliseconds: 70),
            AnimationFrame(image: still.pixels, durationMilliseconds: 20),
        ]
        let gif = try manager.encodeAnimation(frames, options: EncodeOptions(format: "gif", loopCount: 0)).bytes
        let info = try manager.probe(gif)
        #expect(info.format == "gif" && info.frameCount == 2 && info.loopCount == 0)
        #expect((info.width, info.height) == (13, 7))
    }
}
