import JPEGCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// The byte limit counts libjpeg's whole-image coefficient buffer of progressive files, in
/// full, scaled (thumbnail) and incremental decodes, before anything is allocated.
@Suite struct JPEGLimitsTests {
    let coder = JPEGImageCoder()

    func decode(_ name: String, _ request: DecodeRequest) throws -> DecodedImage {
        try Fixture.bytes("jpeg/\(name)").withUnsafeBytes { try coder.decode($0, request: request) }
    }

    func info(_ name: String) throws -> ImageInfo {
        try Fixture.bytes("jpeg/\(name)").withUnsafeBytes { try coder.probe($0) }
    }

    @Test func aLimitOfExactlyTheOutputFitsABaselineFileButNotAProgressiveOne() throws {
        for name in ["baseline.jpg", "progressive.jpg"] {
            let info = try info(name)
            var request = DecodeRequest()
            request.maxByteCount = info.width * info.height * 4
            if name == "baseline.jpg" {
                #expect(try decode(name, request).width == info.width)
                continue
            }
            let error = try #require(throws: ImageCodingError.self) { try decode(name, request) }
            #expect(error.kind == .tooLarge)
            #expect(error.message.hasPrefix("image too large: decoding a multi-scan JPEG's coefficients needs "))
            #expect(error.message.hasSuffix(" bytes, over the limit of \(request.maxByteCount) bytes"))
        }
    }

    @Test func aScaledThumbnailOfAProgressiveFileStillCountsTheFullSizeCoefficients() throws {
        let info = try info("progressive.jpg")
        var request = DecodeRequest(thumbnailBox: (1, 1))
        // An eighth-scale output is tiny, but the coefficients are kept at full size.
        request.maxByteCount = info.width * info.height
        let error = try #require(throws: ImageCodingError.self) { try decode("progressive.jpg", request) }
        #expect(error.kind == .tooLarge)
        request.maxByteCount = DecodeOptions.defaultMaxByteCount
        #expect(try decode("progressive.jpg", request).width == (info.width + 7) / 8)
    }

    @Test func anIncrementalDecodeCountsItsCanvasItsCopyAndTheCoefficients() throws {
        for name in ["baseline.jpg", "progressive.jpg"] {
            let info = try info(name)
            var request = DecodeRequest()
            request.maxByteCount = info.width * info.height * 8
            let decoder = try coder.makeIncrementalDecoder(request: request)
            let bytes = try Fixture.bytes("jpeg/\(name)")
            if name == "baseline.jpg" {
                try bytes.withUnsafeBytes { try decoder.append($0, isFinal: true) }
                #expect(try decoder.currentImage()?.isPartial == false)
                continue
            }
            let error = try #require(throws: ImageCodingError.self) {
                try bytes.withUnsafeBytes { try decoder.append($0, isFinal: true) }
            }
            #expect(error.kind == .tooLarge)
            #expect(error.message.hasPrefix("image too large: decoding the canvas and its copy needs "))
        }
    }

    @Test func aPassedDeadlineStopsTheRowLoop() throws {
        let image = try PixelBuffer(width: 16, height: 200, format: .rgba8)
        let bytes = try coder.encode(image, request: EncodeRequest(format: "jpeg")).bytes
        var request = DecodeRequest()
        request.deadline = DecodeDeadline(monotonicNanoseconds: 1)
        let error = try #require(throws: ImageCodingError.self) {
            try bytes.withUnsafeBytes { try coder.decode($0, request: request) }
        }
        #expect(error == ImageCodingError(.timedOut, "the decode passed its deadline"))
        #expect(try bytes.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }.height == 200)
    }
}
