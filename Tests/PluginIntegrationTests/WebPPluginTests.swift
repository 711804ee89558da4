import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// The real WebP `.so` through the host: stills, thumbnails, animations and GIF ↔ WebP.
@Suite struct WebPPluginTests {
    let folder: PluginsFolder
    let manager: CodersManager

    init() throws {
        folder = try PluginsFolder()
        try folder.addBundled(manifest: "webp.json", library: "libWebImageWebP.so")
        try folder.addBundled(manifest: "gif.json", library: "libWebImageGIF.so")
        try folder.addPNGAndJPEG()
        manager = PluginHost(searchPath: PluginSearchPath(directories: [folder.path])).makeCodersManager()
    }

    @Test func stillsAndThumbnailsCrossTheABI() throws {
        let bytes = try Fixture.bytes("webp/lossless-alpha.webp")
        let info = try manager.probe(bytes)
        #expect(info.format == "webp" && info.traits.contains(.hasAlpha))
        let image = try manager.decode(bytes)
        #expect((image.width, image.height) == (info.width, info.height))
        let thumbnail = try manager.decode(
            bytes, options: DecodeOptions(thumbnail: ThumbnailSize(width: 16, height: 16)))
        #expect(max(thumbnail.width, thumbnail.height) == 16)
    }

    @Test func aLosslessRoundTripIsExact() throws {
        let still = try manager.decode(try Fixture.bytes("png/rgba8.png"))
        let webp = try manager.encode(still.pixels, options: EncodeOptions(format: "webp", lossless: true)).bytes
        #expect(try manager.decode(webp).pixels.packedBytes() == still.pixels.packedBytes())
    }

    @Test func gifToAnimatedWebPKeepsFramesDurationsAndLoopCount() throws {
        let gif = try manager.openAnimation(try Fixture.bytes("gif/anim.gif"))
        let frames = try (0..<gif.info.frameCount).map {
            AnimationFrame(
                image: try manager.decodeFrame($0, of: gif).pixels, durationMilliseconds: gif.frameDuration(at: $0))
        }
        let webp = try manager.encodeAnimation(
            frames, options: EncodeOptions(format: "webp", lossless: true, loopCount: gif.info.loopCount)
        ).bytes
        let animation = try manager.openAnimation(webp)
        #expect(animation.info.format == "webp")
        #expect(animation.info.frameCount == 4 && animation.info.loopCount == 3)
        #expect((0..<4).map { animation.frameDuration(at: $0) } == [50, 100, 100, 200])
        for index in 0..<4 {
            let original = frames[index].image.packedBytes()
            let decoded = try manager.decodeFrame(index, of: animation).pixels.packedBytes()
            for pixel in stride(from: 0, to: original.count, by: 4) where original[pixel + 3] == 255 {
                #expect(Array(decoded[pixel..<(pixel + 4)]) == Array(original[pixel..<(pixel + 4)]), "frame \(index)")
            }
        }
    }
}
