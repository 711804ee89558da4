import WebImageCore

extension FixtureVerification {
    /// The most frames of one fixture decoded through the animation functions.
    private static let maximumFrames = 16

    /// Opening the file as an animation agrees with `probe` on size and frame count, each
    /// frame decodes at the canvas size with a duration of at least 0 ms, and frame 0 equals
    /// the full decode pixel for pixel.
    func checkAnimation(_ coder: any AnimatedImageCoder, baseline: Baseline) {
        let info = baseline.info
        let source: any AnimatedImageSource
        do {
            source = try coder.openAnimation(fixture.bytes)
        } catch {
            fail(.animation, "openAnimation \(run.unexpected(error))")
            return
        }
        let opened = source.info
        if (opened.width, opened.height, opened.frameCount) != (info.width, info.height, info.frameCount) {
            fail(
                .animation,
                "openAnimation says \(opened.width)x\(opened.height) with \(opened.frameCount) frames, "
                    + "probe says \(info.width)x\(info.height) with \(info.frameCount)")
        }
        for index in 0..<max(0, min(opened.frameCount, Self.maximumFrames)) {
            let frame: DecodedImage
            do {
                frame = try source.decodeFrame(at: index, request: DecodeRequest())
            } catch {
                fail(.animation, "frame \(index) \(run.unexpected(error))")
                continue
            }
            if (frame.width, frame.height) != (opened.width, opened.height) {
                fail(
                    .animation,
                    "frame \(index) is \(frame.width)x\(frame.height), the canvas is \(opened.width)x\(opened.height)")
            } else if index == 0 && frame.pixels.packedBytes() != baseline.image.pixels.packedBytes() {
                fail(.animation, "frame 0's pixels differ from decode's")
            }
            let duration = source.frameDuration(at: index)
            if duration < 0 { fail(.animation, "frame \(index) lasts \(duration) ms") }
        }
    }
}
