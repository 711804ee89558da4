import PNGCoder
import Testing
import WebImageCoderVerifier
import WebImageCore
import WebImageTestSupport

/// Seeded mutations of an APNG (bytes flipped, the file cut): opening and decoding every
/// frame either works or throws an ``ImageCodingError``, never traps. The APNG chunk
/// parser is Swift, so an out-of-range index or an overflow would crash this test.
@Suite struct APNGMutationTests {
    let coder = PNGImageCoder()

    @Test func mutatedFilesEndInTypedErrors() throws {
        let original = try Fixture.bytes("apng/anim.apng")
        var noise = SeededNoise(seed: 12345)
        func random(_ bound: Int) -> Int { noise.next(below: bound) }
        var opened = 0
        for _ in 0..<600 {
            var bytes = original
            for _ in 0..<(1 + random(4)) {
                bytes[8 + random(bytes.count - 8)] = UInt8(random(256))
            }
            if random(4) == 0 { bytes = Array(bytes.prefix(8 + random(bytes.count - 8))) }
            do {
                let animation = try coder.openAnimation(bytes)
                opened += 1
                for index in 0..<animation.info.frameCount {
                    _ = try? animation.decodeFrame(at: index, request: DecodeRequest(maxPixelCount: 1 << 20))
                }
            } catch is ImageCodingError {
                continue
            }
        }
        #expect(opened > 0)
    }
}
