import Testing
import WebImageCore

@Suite struct AnimationTransformTests {
    private func animation() throws -> DecodedAnimation {
        DecodedAnimation(
            frames: try [100, 200, 300].enumerated().map { index, duration in
                AnimationFrame(
                    image: try TestPixels.rgba8(width: 3, height: 1) { x, _ in [UInt8(index * 10 + x), 0, 0, 255] },
                    durationMilliseconds: duration)
            }, loopCount: 2)
    }

    @Test func everyFrameIsTransformedKeepingDurationsAndLoopCount() throws {
        let flipped = try FlippingTransformer(horizontal: true, vertical: false).transformEveryFrame(
            of: try animation())
        #expect(flipped.loopCount == 2)
        #expect(flipped.frames.map(\.durationMilliseconds) == [100, 200, 300])
        #expect(flipped.frames.map { TestPixels.labels($0.image) } == [[[2, 1, 0]], [[12, 11, 10]], [[22, 21, 20]]])
    }

    @Test func animatedImagesAreLeftAloneUnlessAsked() throws {
        let original = try animation()
        let transformer = try CroppingTransformer(x: 0, y: 0, width: 1, height: 1)
        #expect(!transformer.appliesTransform(to: original, transformsAnimatedImages: false))
        let untouched = try transformer.transform(original, transformsAnimatedImages: false)
        #expect(zip(untouched.frames, original.frames).allSatisfy { $0.image === $1.image })
        #expect(transformer.appliesTransform(to: original, transformsAnimatedImages: true))
        let cropped = try transformer.transform(original, transformsAnimatedImages: true)
        #expect(cropped.frames.map { TestPixels.labels($0.image) } == [[[0]], [[10]], [[20]]])
    }

    @Test func aSingleFrameIsAStillImageAndAlwaysTransformed() throws {
        let still = DecodedAnimation(frames: [try animation().frames[1]], loopCount: 0)
        let transformer = FlippingTransformer(horizontal: true, vertical: false)
        #expect(transformer.appliesTransform(to: still, transformsAnimatedImages: false))
        let flipped = try transformer.transform(still, transformsAnimatedImages: false)
        #expect(TestPixels.labels(flipped.frames[0].image) == [[12, 11, 10]])
        #expect(flipped.frames[0].durationMilliseconds == 200)
    }
}
