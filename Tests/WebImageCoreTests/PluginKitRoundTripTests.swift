import CWebImagePlugin
import Testing
import WebImagePluginKit

@testable import WebImageCore

/// A Swift coder exported through the plugin kit's C table and used through the host's
/// adapter, in one process: every function of the coder ABI crosses the boundary both ways.
@Suite struct PluginKitRoundTripTests {
    nonisolated(unsafe) static let descriptor: UnsafePointer<webimage_plugin_descriptor> = {
        let raw = PluginExport.coder(TestRawCoder(), name: "wiraw", version: "3.2.1", host: HostServices.host)!
        return raw.assumingMemoryBound(to: webimage_plugin_descriptor.self)
    }()

    var coder: PluginCoder {
        get throws { try PluginCoder(table: Self.descriptor.pointee.coder!, pluginName: "wiraw") }
    }

    func file(width: Int, height: Int, frames: [Int] = [0]) throws -> [UInt8] {
        let images = try frames.enumerated().map { index, duration in
            AnimationFrame(
                image: try TestPixels.rgba8(width: width, height: height) { x, y in
                    [UInt8(y * width + x), UInt8(index), 0, 255]
                }, durationMilliseconds: duration)
        }
        return try TestRawCoder().encodeAnimation(images, request: EncodeRequest(format: "wiraw")).bytes
    }

    @Test func descriptorDescribesTheCoder() throws {
        let descriptor = Self.descriptor.pointee
        #expect(descriptor.abi_version == WEBIMAGE_PLUGIN_ABI_VERSION)
        #expect(Int(descriptor.struct_size) == MemoryLayout<webimage_plugin_descriptor>.size)
        #expect(String(cString: descriptor.name) == "wiraw")
        #expect(String(cString: descriptor.version) == "3.2.1")
        #expect(descriptor.kinds == WEBIMAGE_KIND_CODER)
        let coder = try coder
        #expect(coder.isThreadSafe)
        #expect(coder.formats == [TestRawCoder.format])
        let table = descriptor.coder!.pointee
        #expect(table.encode != nil && table.incremental_create != nil && table.animation_open != nil)
    }

    @Test func probeAndDecodeCrossTheABI() throws {
        let bytes = try file(width: 4, height: 3)
        let coder = try coder
        #expect(bytes.withUnsafeBytes { coder.canDecode($0) })
        #expect(![UInt8](repeating: 1, count: 8).withUnsafeBytes { coder.canDecode($0) })
        let info = try bytes.withUnsafeBytes { try coder.probe($0) }
        #expect(info == ImageInfo(format: "wiraw", width: 4, height: 3, orientation: .up, traits: [.hasAlpha]))
        let image = try bytes.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
        #expect((image.width, image.height, image.format) == (4, 3, "wiraw"))
        #expect(TestPixels.labels(image.pixels) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]])
    }

    @Test func thumbnailBoxAndPixelLimitReachThePlugin() throws {
        let bytes = try file(width: 8, height: 8)
        let coder = try coder
        let thumbnail = try bytes.withUnsafeBytes {
            try coder.decode($0, request: DecodeRequest(thumbnailBox: (4, 4)))
        }
        #expect((thumbnail.width, thumbnail.height) == (4, 4))
        #expect((thumbnail.sourceWidth, thumbnail.sourceHeight) == (8, 8))
        let error = try #require(throws: ImageCodingError.self) {
            try bytes.withUnsafeBytes { try coder.decode($0, request: DecodeRequest(maxPixelCount: 63)) }
        }
        #expect(error.kind == .tooLarge)
        #expect(error.message == "image too large: 8×8 pixels exceed the limit of 63 pixels")
    }

    @Test func errorsKeepTheirKindAndMessage() throws {
        var bytes = try file(width: 4, height: 4)
        bytes.removeLast(10)
        let coder = try coder
        let error = try #require(throws: ImageCodingError.self) {
            try bytes.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
        }
        #expect(error == ImageCodingError(.truncatedData, "WIRAW pixels end after 54 of 64 bytes"))
        let empty = try #require(throws: ImageCodingError.self) {
            try [UInt8]().withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
        }
        #expect(empty.kind == .truncatedData)
    }

    @Test func encodeReturnsHostOwnedBytes() throws {
        let pixels = try TestPixels.labelled(width: 3, height: 2)
        let coder = try coder
        let bytes = try coder.encode(pixels, request: EncodeRequest(format: "wiraw"))
        #expect(bytes == (try TestRawCoder().encode(pixels, request: EncodeRequest(format: "wiraw"))))
    }

    @Test func incrementalDecodeShowsRowsSoFar() throws {
        let bytes = try file(width: 2, height: 3)
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        try bytes[0..<8].withUnsafeBytes { try decoder.append($0, isFinal: false) }
        #expect(try decoder.currentImage() == nil)
        let headerBytes = 13
        try bytes[8..<(headerBytes + 16)].withUnsafeBytes { try decoder.append($0, isFinal: false) }
        let partial = try #require(try decoder.currentImage())
        #expect(partial.isPartial)
        #expect(partial.pixels.channels(x: 1, y: 1) == [3, 0, 0, 255])
        #expect(partial.pixels.channels(x: 0, y: 2) == [0, 0, 0, 0])
        try bytes[(headerBytes + 16)...].withUnsafeBytes { try decoder.append($0, isFinal: true) }
        let complete = try #require(try decoder.currentImage())
        #expect(!complete.isPartial)
        #expect(TestPixels.labels(complete.pixels) == [[0, 1], [2, 3], [4, 5]])
    }

    @Test func incrementalCorruptionIsAnError() throws {
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        let error = try #require(throws: ImageCodingError.self) {
            try [UInt8](repeating: 0x41, count: 6).withUnsafeBytes { try decoder.append($0, isFinal: false) }
        }
        #expect(error == ImageCodingError(.corruptData, "not a WIRAW stream"))
    }

    @Test func animationFramesAreDecodedLazilyWithDurations() throws {
        let bytes = try file(width: 2, height: 2, frames: [40, 100, 70])
        let animation = try coder.openAnimation(bytes)
        #expect(animation.info.frameCount == 3)
        #expect(animation.info.traits.contains(.animated))
        #expect((0..<3).map { animation.frameDuration(at: $0) } == [40, 100, 70])
        #expect(animation.frameDuration(at: 7) == 0)
        let frame = try animation.decodeFrame(at: 2, request: DecodeRequest())
        #expect(frame.pixels.channels(x: 1, y: 1) == [3, 2, 0, 255])
        let error = try #require(throws: ImageCodingError.self) {
            try animation.decodeFrame(at: 3, request: DecodeRequest())
        }
        #expect(error.kind == .invalidArgument)
    }

    /// The host hands the caller's array itself to the plugin, which reads it in place.
    @Test func anAnimationCrossesTheABIWithoutACopyOfTheFile() throws {
        let bytes = try file(width: 2, height: 2, frames: [40, 100])
        let animation = try coder.openAnimation(bytes)
        let callers = bytes.withUnsafeBytes { Int(bitPattern: $0.baseAddress) }
        let opened = TestRawCoder.keptBytesOpened.withLock { $0 }
        #expect(opened.contains(callers))
        #expect(
            try animation.decodeFrame(at: 1, request: DecodeRequest()).pixels.channels(x: 1, y: 1) == [3, 1, 0, 255])
    }

    @Test func animationEncodeCrossesTheABI() throws {
        let frames = try (0..<2).map { index in
            AnimationFrame(
                image: try TestPixels.rgba8(width: 1, height: 1) { _, _ in [UInt8(index), 0, 0, 255] },
                durationMilliseconds: 50 * (index + 1))
        }
        let bytes = try coder.encodeAnimation(frames, request: EncodeRequest(format: "wiraw", loopCount: 0))
        #expect(bytes == (try TestRawCoder().encodeAnimation(frames, request: EncodeRequest(format: "wiraw"))))
    }
}
