import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// The frame-by-frame animation encoder of a plugin running in its worker
/// (`IsolatedAnimationEncoder`): the bundled GIF, PNG (APNG) and WebP plugins forced into
/// isolation write what they write in-process, and a hostile plugin
/// (`Tests/Fixtures/HostilePlugins/hostile.c`) that crashes or hangs in
/// `animation_encoder_add` is a typed error, after which the encoder's state is gone and a
/// new encoder works.
@Suite(.ownThread) struct IsolatedAnimationEncoderTests {
    /// The folders of the hosts made so far: a host reads its plugins' files when it opens
    /// them, long after the test's last use of the folder.
    static let keepAlive = TrackedMutex<[PluginsFolder]>([])

    /// A host over a folder with the bundled GIF, PNG and WebP plugins, under `policy`.
    func bundledHost(_ policy: PluginIsolation.Policy) throws -> PluginHost {
        let folder = try PluginsFolder()
        try folder.addBundled(manifest: "gif.json", library: "libWebImageGIF.so")
        try folder.addBundled(manifest: "png.json", library: "libWebImagePNG.so")
        try folder.addBundled(manifest: "webp.json", library: "libWebImageWebP.so")
        Self.keepAlive.withLock { $0.append(folder) }
        return PluginHost(
            searchPath: PluginSearchPath(directories: [folder.path]), isolation: PluginIsolation(policy: policy))
    }

    /// A host running the hostile plugin `name` with `behaviour` in its worker.
    func hostileHost(_ name: String, _ behaviour: HostileBehaviour, callTimeout: Duration = .seconds(30)) throws
        -> PluginHost
    {
        let folder = try PluginsFolder()
        try folder.addHostile(name, behaviour)
        Self.keepAlive.withLock { $0.append(folder) }
        let host = PluginHost(
            searchPath: PluginSearchPath(directories: [folder.path]),
            isolation: PluginIsolation(callTimeout: callTimeout))
        #expect(host.isIsolated(name))
        return host
    }

    /// Three 10×8 RGBA8 frames, each different, with a transparent column.
    func frames() throws -> [AnimationFrame] {
        try TestAnimation.frames(width: 10, height: 8, durations: [40, 100, 250]) { index, x, y in
            [UInt8(index * 80), UInt8(x * 20), UInt8(y * 30), x == index ? 0 : 255]
        }
    }

    /// `frames` encoded one by one by the frame-by-frame encoder of `host`'s coder for `format`.
    func encodeFrameByFrame(_ frames: [AnimationFrame], host: PluginHost, request: EncodeRequest) throws -> [UInt8] {
        let coder = try #require(
            try host.makeCodersManager().coder(forFormat: request.format).coder as? any StreamingAnimationCoder)
        #expect(coder.encodesAnimationFrameByFrame(format: request.format))
        let encoder = try coder.makeAnimationEncoder(
            width: frames[0].image.width, height: frames[0].image.height, frameCount: frames.count, request: request)
        for frame in frames { try encoder.add(frame) }
        return try encoder.finish().bytes
    }

    /// The RGBA bytes of every pixel of `image`.
    func pixels(_ image: PixelBuffer) -> [UInt8] {
        (0..<image.height).flatMap { y in
            Array(UnsafeRawBufferPointer(start: image.row(y), count: image.width * image.format.bytesPerPixel))
        }
    }

    @Test("GIF: the isolated frame-by-frame encoder writes the same file as the in-process one")
    func gifIsTheSameFileIsolated() throws {
        let isolated = try bundledHost(.all)
        #expect(try isolated.makeCodersManager().coder(forFormat: "gif").coder is IsolatedCoder)
        let request = EncodeRequest(format: "gif", loopCount: 2)
        let frames = try frames()
        let inWorker = try encodeFrameByFrame(frames, host: isolated, request: request)
        let inProcess = try encodeFrameByFrame(frames, host: try bundledHost(.none), request: request)
        #expect(inWorker == inProcess)
        let animation = try isolated.makeCodersManager().openAnimation(inWorker)
        #expect(animation.info.frameCount == 3 && animation.info.loopCount == 2)
        #expect((0..<3).map { animation.frameDuration(at: $0) } == [40, 100, 250])
    }

    @Test(
        "APNG and lossless WebP written frame by frame in the worker decode back to the same frames",
        arguments: ["png", "webp"])
    func framesDecodeBack(format: String) throws {
        let host = try bundledHost(.all)
        let frames = try frames()
        let bytes = try encodeFrameByFrame(frames, host: host, request: EncodeRequest(format: format, lossless: true))
        let manager = try bundledHost(.none).makeCodersManager()
        let animation = try manager.openAnimation(bytes)
        #expect(animation.info.frameCount == 3)
        #expect((0..<3).map { animation.frameDuration(at: $0) } == [40, 100, 250])
        for index in 0..<3 {
            let decoded = try manager.decodeFrame(index, of: animation, options: DecodeOptions()).pixels
            #expect(decoded.width == 10 && decoded.height == 8)
            // A transparent pixel's colour is not kept by every format: compare the opaque ones.
            let expected = pixels(frames[index].image)
            let actual = pixels(decoded)
            for pixel in 0..<80 where expected[pixel * 4 + 3] == 255 {
                #expect(Array(actual[pixel * 4..<pixel * 4 + 4]) == Array(expected[pixel * 4..<pixel * 4 + 4]))
            }
        }
    }

    /// An RGBA8 frame `width` pixels wide and 1 high, every byte `value`.
    func hostileFrame(width: Int, value: UInt8) throws -> AnimationFrame {
        let image = try PixelBuffer(width: width, height: 1, format: .rgba8)
        memset(image.baseAddress, Int32(value), width * 4)
        return AnimationFrame(image: image, durationMilliseconds: 10)
    }

    @Test("the hostile coder's frame-by-frame encoder works in its worker")
    func hostileEncoderWorks() throws {
        let coder = try hostileHost("animated", .chatty).isolatedCoder(named: "animated")
        #expect(coder.encodesAnimationFrameByFrame(format: "hostile"))
        #expect(!coder.encodesAnimationFrameByFrame(format: "gif"))
        let encoder = try coder.makeAnimationEncoder(
            width: 2, height: 1, frameCount: 2, request: EncodeRequest(format: "hostile"))
        try encoder.add(try hostileFrame(width: 2, value: 5))
        #expect(throws: ImageCodingError(.invalidArgument, "fewer frames than announced")) { try encoder.finish() }
        try encoder.add(try hostileFrame(width: 2, value: 6))
        #expect(try encoder.finish().bytes == Array("HOSTANIM".utf8) + [5, 5, 5, 5, 6, 6, 6, 6])
    }

    @Test(
        "a crash in animation_encoder_add is a typed error; the encoder is gone, a new one works in a new worker",
        arguments: [
            (HostileBehaviour.segfault(in: .animationAdd), "SIGSEGV"),
            (HostileBehaviour.abort(in: .animationAdd), "SIGABRT"),
        ])
    func crashInAnimationAdd(behaviour: HostileBehaviour, signal: String) throws {
        let coder = try hostileHost("crash_add", behaviour).isolatedCoder(named: "crash_add")
        let request = EncodeRequest(format: "hostile")
        let encoder = try coder.makeAnimationEncoder(width: 3, height: 1, frameCount: 2, request: request)
        #expect(throws: ImageCodingError(.pluginCrashed, "plugin 'crash_add' crashed in encode animation (\(signal))"))
        {
            try encoder.add(try hostileFrame(width: 3, value: 1))
        }
        let gone = ImageCodingError(
            .internalError, "plugin 'crash_add' was restarted after a crash; the state encode animation needs is gone")
        #expect(throws: gone) { try encoder.add(try hostileFrame(width: 3, value: 1)) }
        #expect(throws: gone) { try encoder.finish() }
        let next = try coder.makeAnimationEncoder(width: 2, height: 1, frameCount: 1, request: request)
        try next.add(try hostileFrame(width: 2, value: 9))
        #expect(try next.finish().bytes == Array("HOSTANIM".utf8) + [9, 9, 9, 9])
    }

    @Test("an animation_encoder_add that overruns its deadline is killed with a typed timeout")
    func hangInAnimationAdd() throws {
        let coder = try hostileHost("hang_add", .hang(in: .animationAdd), callTimeout: .seconds(1))
            .isolatedCoder(named: "hang_add")
        let encoder = try coder.makeAnimationEncoder(
            width: 3, height: 1, frameCount: 1, request: EncodeRequest(format: "hostile"))
        #expect(
            throws: ImageCodingError(
                .timedOut, "plugin 'hang_add' timed out in encode animation after 1 s; its worker was killed")
        ) { try encoder.add(try hostileFrame(width: 3, value: 1)) }
    }

    @Test("a frame of another size is refused before it reaches the worker")
    func wrongSizeIsRefused() throws {
        let coder = try hostileHost("animated", .chatty).isolatedCoder(named: "animated")
        let encoder = try coder.makeAnimationEncoder(
            width: 2, height: 1, frameCount: 1, request: EncodeRequest(format: "hostile"))
        #expect(
            throws: ImageCodingError(.invalidArgument, "frame of 3×1 pixels in an animation of 2×1 pixels")
        ) { try encoder.add(try hostileFrame(width: 3, value: 1)) }
    }
}
