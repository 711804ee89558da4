import Testing
import WebImageCoderVerifier
import WebImageCore
import WebImageTestSupport

/// ``CoderVerifier`` passes a coder that keeps the contract and reports each deliberate breach.
@Suite struct CoderVerifierTests {
    /// A WIRAW file (see ``TestRawCoder``) of `width` × `height` pixels and `frames` frames of 40 ms.
    static func rawFile(width: Int, height: Int, orientation: UInt8 = 1, frames: Int = 1) -> VerifierFixture {
        var bytes = TestRawCoder.magic + [UInt8(width), 0, UInt8(height), 0, orientation, UInt8(frames)]
        bytes += Array(repeating: [40, 0] as [UInt8], count: frames).flatMap { $0 }
        for frame in 0..<frames {
            bytes += (0..<(width * height)).flatMap { [UInt8($0 % 256), UInt8(frame * 90), 128, 255] as [UInt8] }
        }
        return VerifierFixture(name: "\(width)x\(height)-\(orientation)-\(frames).wiraw", bytes: bytes)
    }

    static let still = rawFile(width: 12, height: 8)

    /// Options without noise rounds, so that each flaw shows in known checks only.
    static func withoutNoise(failuresPerCheck: Int = 5) -> VerifierOptions {
        var options = VerifierOptions()
        options.noiseSeeds = []
        options.failuresPerCheck = failuresPerCheck
        return options
    }

    static let expectedKinds =
        ".corruptData (WEBIMAGE_STATUS_CORRUPT_DATA), .tooLarge (WEBIMAGE_STATUS_TOO_LARGE), "
        + ".truncatedData (WEBIMAGE_STATUS_TRUNCATED_DATA), .unsupportedFormat (WEBIMAGE_STATUS_UNSUPPORTED_FORMAT)"

    @Test func aCoderThatKeepsTheContractPasses() {
        // The rotated 61x43 file gets the stored box 48x64 for 64x48 without aspect: taller than
        // the image, so the full height is the most the coder can give.
        let fixtures = [
            Self.still, Self.rawFile(width: 13, height: 7, orientation: 6),
            Self.rawFile(width: 5, height: 4, frames: 2),
            Self.rawFile(width: 61, height: 43, orientation: 6),
        ]
        // Every check must run: the verifier's default time limit (10 s) is scaled as the tests'
        // other bounds are, since ThreadSanitizer slows the 52 checks past it.
        var options = VerifierOptions()
        options.timeLimit = HangBound.scaled(options.timeLimit)
        let report = CoderVerifier.verify(coder: TestRawCoder(), fixtures: fixtures, options: options)
        #expect(report.failures == [])
        #expect(report.skipped == [])
        #expect(report.formats == ["wiraw"])
        // Per fixture: sniffing, probe, decode, agreement, pixel limit, 3 incremental, animation, thumbnail,
        // round trip, truncation, noise.
        #expect(report.checksRun == 52)
    }

    @Test func errorsOfAnotherTypeAreReported() {
        let report = CoderVerifier.verify(
            coder: FlawedRawCoder(.throwsForeignErrors), fixtures: [Self.still], options: Self.withoutNoise())
        #expect(
            report.failures.filter { $0.check == .pixelLimit }.map(\.message) == [
                "decode with a limit of 95 pixels threw ForeignError (ForeignError()), not an ImageCodingError"
            ])
        let truncation = report.failures.filter { $0.check == .truncation }.map(\.message)
        #expect(
            truncation.first == "prefix of 1 bytes: probe threw ForeignError (ForeignError()), not an ImageCodingError")
        // Probe fails for the 12 prefixes shorter than the header, both decodes for all 396: 5 kept, 799 counted.
        #expect(truncation.count == 6)
        #expect(truncation.last == "799 more failures of this check")
        #expect(report.failures.count == 7)
    }

    @Test func internalErrorsAreReported() {
        let report = CoderVerifier.verify(
            coder: FlawedRawCoder(.throwsInternalErrors), fixtures: [Self.still], options: Self.withoutNoise())
        #expect(Set(report.failures.map(\.check)) == [.pixelLimit, .truncation])
        #expect(
            report.failures.first?.description
                == "12x8-1-1.wiraw: pixel-limit: decode with a limit of 95 pixels threw .internalError (WEBIMAGE_STATUS_INTERNAL_ERROR): "
                + "image too large: 12×8 pixels exceed the limit of 95 pixels; expected one of .tooLarge (WEBIMAGE_STATUS_TOO_LARGE)"
        )
        #expect(
            report.failures.first { $0.check == .truncation }?.description
                == "12x8-1-1.wiraw: truncation: prefix of 1 bytes: probe threw .internalError (WEBIMAGE_STATUS_INTERNAL_ERROR): "
                + "WIRAW header needs 11 bytes, got 1; expected one of \(Self.expectedKinds)")
    }

    @Test func probeAndDecodeDisagreeingOnSizeIsReported() {
        let report = CoderVerifier.verify(
            coder: FlawedRawCoder(.probeSizeDisagrees), fixtures: [Self.still],
            options: Self.withoutNoise(failuresPerCheck: 20))
        #expect(
            report.failures.filter { $0.check == .probeDecodeAgreement }.map(\.message) == [
                "decode gives 12x8, probe says 13x8", "decode's source size is 12x8, probe says 13x8",
            ])
        let thumbnails = report.failures.filter { $0.check == .thumbnail }.map(\.message)
        // Boxes 16x16, 64x48 and 10000x10000, with and without aspect, each from the coder and the manager.
        #expect(thumbnails.count == 12)
        #expect(
            thumbnails.prefix(2) == [
                "box 16x16: coder asked for 16x16 returned 12x8, smaller than the target 13x8",
                "box 16x16: CodersManager returned 12x8, expected 13x8",
            ])
        #expect(
            report.failures.filter { $0.check == .pixelLimit }.map(\.message) == [
                "decode with a limit of 103 pixels returned 12x8 instead of failing"
            ])
        #expect(report.failures.count == 15)
    }

    @Test func upscaledThumbnailsAreReported() {
        let report = CoderVerifier.verify(
            coder: FlawedRawCoder(.upscalesThumbnails), fixtures: [Self.still],
            options: Self.withoutNoise(failuresPerCheck: 20))
        #expect(
            report.failures.map(\.message) == [
                "box 16x16: coder asked for 16x16 returned 24x16, larger than the image (12x8)",
                "box 16x16 (no aspect): coder asked for 16x16 returned 24x16, larger than the image (12x8)",
                "box 64x48: coder asked for 64x48 returned 24x16, larger than the image (12x8)",
                "box 64x48 (no aspect): coder asked for 64x48 returned 24x16, larger than the image (12x8)",
                "box 10000x10000: coder asked for 10000x10000 returned 24x16, larger than the image (12x8)",
                "box 10000x10000 (no aspect): coder asked for 10000x10000 returned 24x16, larger than the image (12x8)",
            ])
        #expect(Set(report.failures.map(\.check)) == [.thumbnail])
    }

    @Test func anIncrementalDecoderWithoutAFinalImageIsReported() {
        let report = CoderVerifier.verify(
            coder: ForgetfulIncrementalCoder(), fixtures: [Self.still], options: Self.withoutNoise())
        #expect(
            report.failures.map(\.description) == [
                "12x8-1-1.wiraw: incremental: 1-byte pieces: no image after the last byte",
                "12x8-1-1.wiraw: incremental: 7-byte pieces: no image after the last byte",
                "12x8-1-1.wiraw: incremental: whole file: no image after the last byte",
            ])
    }

    @Test func anAnimationWithTheWrongFrameCountIsReported() {
        let report = CoderVerifier.verify(
            coder: MiscountingAnimationCoder(), fixtures: [Self.still], options: Self.withoutNoise())
        #expect(
            report.failures.map(\.description) == [
                "12x8-1-1.wiraw: animation: openAnimation says 12x8 with 2 frames, probe says 12x8 with 1",
                "12x8-1-1.wiraw: animation: frame 1 threw .truncatedData (WEBIMAGE_STATUS_TRUNCATED_DATA): "
                    + "WIRAW pixels end after 0 of 384 bytes",
            ])
    }

    @Test func noiseThatBreaksTheCoderIsReported() {
        var options = VerifierOptions()
        options.noiseSeeds = [1]
        let report = CoderVerifier.verify(
            coder: FlawedRawCoder(.rejectsTrailingBytes), fixtures: [Self.still], options: options)
        #expect(Set(report.failures.map(\.check)) == [.noise])
        #expect(
            report.failures.prefix(2).map(\.message) == [
                "4096 noise bytes after the first 16 (seed 1): decode threw .internalError (WEBIMAGE_STATUS_INTERNAL_ERROR): "
                    + "unexpected bytes after the pixels; expected one of \(Self.expectedKinds)",
                "4096 noise bytes after the first 16 (seed 1): thumbnail decode threw .internalError (WEBIMAGE_STATUS_INTERNAL_ERROR): "
                    + "unexpected bytes after the pixels; expected one of \(Self.expectedKinds)",
            ])
    }

    @Test func checksAfterTheTimeLimitAreSkipped() {
        var options = VerifierOptions()
        options.timeLimit = .zero
        let report = CoderVerifier.verify(coder: TestRawCoder(), fixtures: [Self.still], options: options)
        #expect(report.checksRun == 0)
        #expect(report.skipped == ["12x8-1-1.wiraw: sniffing", "12x8-1-1.wiraw: probe", "12x8-1-1.wiraw: decode"])
        #expect(report.passed && !report.isComplete)
    }

    @Test func dripFeedingSplitsIntoPiecesOfTheGivenSize() {
        #expect(DripFeed.chunks(count: 10, chunkSize: 4) == [0..<4, 4..<8, 8..<10])
        #expect(DripFeed.chunks(count: 10, chunkSize: .max) == [0..<10])
        #expect(DripFeed.chunks(count: 0, chunkSize: 7) == [])
    }

    @Test func dripFeedingAppendsTheRangeInPiecesAndMarksTheLastFinal() throws {
        let decoder = RecordingDecoder()
        try DripFeed.feed(Array(0..<10), to: decoder, chunkSize: 3, from: 2, upTo: 9)
        #expect(decoder.appends.map(\.bytes) == [[2, 3, 4], [5, 6, 7], [8]])
        #expect(decoder.appends.map(\.isFinal) == [false, false, true])
    }

    /// Records what it is given.
    private final class RecordingDecoder: IncrementalImageDecoder {
        var appends: [(bytes: [UInt8], isFinal: Bool)] = []

        func append(_ bytes: UnsafeRawBufferPointer, isFinal: Bool) throws {
            appends.append((Array(bytes), isFinal))
        }

        func currentImage() throws -> DecodedImage? { nil }
    }
}
