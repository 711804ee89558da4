import GIFCoder
import Testing
import WebImageCore
import WebImageTestSupport

@Suite struct GIFIncrementalTests {
    let coder = GIFImageCoder()

    @Test func theFirstFrameShowsOnceCompleteAndTheEndIsNotPartial() throws {
        let bytes = try Fixture.bytes("gif/anim.gif")
        let expected = try CoalescedFrames.frames("anim", count: 4)
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        try bytes[0..<30].withUnsafeBytes { try decoder.append($0, isFinal: false) }
        #expect(try decoder.currentImage() == nil)
        try bytes[30..<100].withUnsafeBytes { try decoder.append($0, isFinal: false) }
        let partial = try #require(try decoder.currentImage())
        #expect(partial.isPartial)
        #expect(partial.visibleBytes == expected[0])
        try bytes[100...].withUnsafeBytes { try decoder.append($0, isFinal: true) }
        let complete = try #require(try decoder.currentImage())
        #expect(!complete.isPartial)
        #expect(complete.visibleBytes == expected[0])
    }

    @Test func theEndOfDataInsideAFrameIsATruncationError() throws {
        let bytes = try Fixture.bytes("gif/bad-truncated.gif")
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        let error = try #require(throws: ImageCodingError.self) {
            try bytes.withUnsafeBytes { try decoder.append($0, isFinal: true) }
        }
        #expect(error == ImageCodingError(.truncatedData, "truncated GIF: the file ends inside frame 2"))
        #expect(try decoder.currentImage()?.isPartial == true)
    }
}
