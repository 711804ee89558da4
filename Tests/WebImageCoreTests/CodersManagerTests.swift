import Testing

@testable import WebImageCore

/// A coder that accepts any bytes when `accepts` is true and decodes a 1 × 1 pixel whose red
/// channel is `marker`.
struct StubCoder: ImageCoder {
    let name: String
    let accepts: Bool
    var marker: UInt8 = 0
    var formats: [ImageFormat] {
        [ImageFormat(name: name, mimeType: "image/\(name)", capabilities: [.decode, .encode])]
    }
    func canDecode(_ bytes: UnsafeRawBufferPointer) -> Bool { accepts }
    func probe(_ bytes: UnsafeRawBufferPointer) throws -> ImageInfo { ImageInfo(format: name, width: 1, height: 1) }
    func decode(_ bytes: UnsafeRawBufferPointer, request: DecodeRequest) throws -> DecodedImage {
        DecodedImage(pixels: try TestPixels.rgba8(width: 1, height: 1) { _, _ in [marker, 0, 0, 255] }, format: name)
    }
    func encode(_ image: PixelBuffer, request: EncodeRequest) throws -> EncodedImageData {
        try EncodedImageData(copying: Array(name.utf8))
    }
}

/// A coder that cannot answer: its `answerCanDecode` throws `error`, as an isolated plugin's
/// coder does when its worker cannot start or crashes.
struct UnanswerableCoder: ImageCoder {
    let name: String
    let error: any Error & Sendable
    var formats: [ImageFormat] { [ImageFormat(name: name, mimeType: "image/\(name)", capabilities: [.decode])] }
    func canDecode(_ bytes: UnsafeRawBufferPointer) -> Bool { false }
    func answerCanDecode(_ bytes: UnsafeRawBufferPointer) throws -> Bool { throw error }
    func probe(_ bytes: UnsafeRawBufferPointer) throws -> ImageInfo { throw error }
    func decode(_ bytes: UnsafeRawBufferPointer, request: DecodeRequest) throws -> DecodedImage { throw error }
    func encode(_ image: PixelBuffer, request: EncodeRequest) throws -> EncodedImageData { throw error }
}

@Suite struct CodersManagerTests {
    let jpegLike: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]

    @Test func signatureMatchesComeBeforeUndeclaredCoders() throws {
        let manager = CodersManager()
        manager.register(StubCoder(name: "generic", accepts: true), priority: 1000)
        manager.register(
            StubCoder(name: "jpeg", accepts: true), priority: 0, signatures: [MagicSignature(pattern: "ffd8ff")!])
        let coder = try jpegLike.withUnsafeBytes { try manager.coder(for: $0) }
        #expect(coder.formats.first?.name == "jpeg")
    }

    @Test func higherPriorityWinsThenLaterRegistration() throws {
        let signature = [MagicSignature(pattern: "ffd8")!]
        let manager = CodersManager()
        manager.register(StubCoder(name: "low", accepts: true), priority: 1, signatures: signature)
        manager.register(StubCoder(name: "high", accepts: true), priority: 5, signatures: signature)
        manager.register(StubCoder(name: "high-later", accepts: true), priority: 5, signatures: signature)
        #expect(manager.coderNames == ["high-later", "high", "low"])
        let coder = try jpegLike.withUnsafeBytes { try manager.coder(for: $0) }
        #expect(coder.formats.first?.name == "high-later")
    }

    @Test func candidateThatRefusesTheBytesIsPassedOver() throws {
        let signature = [MagicSignature(pattern: "ffd8")!]
        let manager = CodersManager()
        manager.register(StubCoder(name: "accepting", accepts: true), signatures: signature)
        manager.register(StubCoder(name: "refusing", accepts: false), signatures: signature)
        let coder = try jpegLike.withUnsafeBytes { try manager.coder(for: $0) }
        #expect(coder.formats.first?.name == "accepting")
    }

    @Test func unknownBytesAreUnsupported() throws {
        let manager = CodersManager()
        manager.register(StubCoder(name: "never", accepts: false))
        let error = try #require(throws: ImageCodingError.self) { try manager.decode([0x00, 0x01, 0x02]) }
        #expect(error.kind == .unsupportedFormat)
        #expect(error.message == "not an image the loaded coders decode (3 bytes)")
        let empty = try #require(throws: ImageCodingError.self) { try manager.decode([]) }
        #expect(empty.message == "not an image the loaded coders decode (0 bytes)")
    }

    /// A coder whose signature matches but which cannot answer is named, with its own kind.
    @Test func aMatchingCoderThatCannotAnswerIsNamed() throws {
        let signature = [MagicSignature(pattern: "ffd8ff")!]
        let manager = CodersManager()
        manager.register(
            UnanswerableCoder(
                name: "jpeg", error: ImageCodingError(.pluginCrashed, "plugin 'jpeg' crashed in can_decode (SIGSEGV)")),
            signatures: signature)
        manager.register(StubCoder(name: "never", accepts: false))
        let error = try #require(throws: ImageCodingError.self) { try manager.decode(jpegLike) }
        #expect(error.kind == .pluginCrashed)
        #expect(
            error.message
                == "coder 'jpeg' could not be used for this data (7 bytes): plugin 'jpeg' crashed in can_decode (SIGSEGV)"
        )
    }

    /// A plugin that cannot be opened (here: its resolution throws a fault) is not a fault of the bytes.
    @Test func aMatchingCoderThatCannotBeOpenedIsUnavailable() throws {
        let manager = CodersManager()
        manager.register(
            name: "jpeg", priority: 0, formats: [("jpeg", ["jpg"])], signatures: [MagicSignature(pattern: "ffd8ff")!],
            resolve: {
                throw PluginFault(
                    .loadFailed, file: "/plugins/libjpeg.so", plugin: "jpeg", detail: "worker did not start")
            }
        )
        manager.register(UnanswerableCoder(name: "other", error: ImageCodingError(.timedOut, "no answer")))
        let error = try #require(throws: ImageCodingError.self) { try manager.decode(jpegLike) }
        #expect(error.kind == .pluginUnavailable)
        let fault = PluginFault(
            .loadFailed, file: "/plugins/libjpeg.so", plugin: "jpeg", detail: "worker did not start")
        #expect(
            error.message
                == "coder 'jpeg' could not be used for this data (7 bytes): \(fault); also skipped: other (no answer)"
        )
    }

    /// Another coder that decodes the bytes wins; a skipped coder without a matching signature
    /// leaves the error `.unsupportedFormat` and is listed.
    @Test func skippedCodersWithoutAMatchingSignatureAreListed() throws {
        let manager = CodersManager()
        manager.register(UnanswerableCoder(name: "broken", error: ImageCodingError(.pluginDisabled, "disabled")))
        let error = try #require(throws: ImageCodingError.self) { try manager.decode([0x00, 0x01, 0x02]) }
        #expect(error.kind == .unsupportedFormat)
        #expect(
            error.message == "not an image the loaded coders decode (3 bytes); skipped: broken (disabled)")
        manager.register(StubCoder(name: "working", accepts: true), priority: -1)
        #expect(try manager.decode([0x00, 0x01, 0x02]).format == "working")
    }

    @Test func lazyCodersAreResolvedOnlyWhenTheyAreCandidates() throws {
        let resolved = TrackedMutex<[String]>([])
        let manager = CodersManager()
        for (name, pattern) in [("png", "89504e47"), ("jpeg", "ffd8ff")] {
            manager.register(
                name: name, priority: 0, formats: [(name, [name])], signatures: [MagicSignature(pattern: pattern)!],
                resolve: {
                    resolved.withLock { $0.append(name) }
                    return StubCoder(name: name, accepts: true)
                })
        }
        _ = try manager.decode(jpegLike)
        #expect(resolved.withLock { $0 } == ["jpeg"])
    }

    @Test func coderThatFailsToLoadIsSkipped() throws {
        let signature = [MagicSignature(pattern: "ffd8")!]
        let manager = CodersManager()
        manager.register(StubCoder(name: "fallback", accepts: true, marker: 7), signatures: signature)
        manager.register(
            name: "broken", priority: 10, formats: [("broken", [])], signatures: signature,
            resolve: { throw PluginFault(.libraryMissing, file: "/x/libbroken.so", detail: "gone") })
        let image = try manager.decode(jpegLike)
        #expect(image.format == "fallback")
        #expect(image.pixels.channels(x: 0, y: 0) == [7, 0, 0, 255])
    }

    @Test func encoderIsChosenByFormatNameOrExtension() throws {
        let manager = CodersManager()
        manager.register(StubCoder(name: "jpeg", accepts: true), extensions: ["jpeg": ["jpg", "jpeg"]])
        #expect(try manager.coder(forFormat: "JPG").format.name == "jpeg")
        #expect(try manager.coder(forFormat: "jpeg").format.name == "jpeg")
        let error = try #require(throws: ImageCodingError.self) { try manager.coder(forFormat: "tiff") }
        #expect(error.kind == .unsupportedFormat)
        #expect(error.message == "no coder handles the format 'tiff'")
    }
}

@Suite struct CodersManagerPipelineTests {
    let manager: CodersManager = {
        let manager = CodersManager()
        manager.register(TestRawCoder(), signatures: [MagicSignature(pattern: "5749524157")!])
        return manager
    }()

    func rawFile(width: Int, height: Int, orientation: ImageOrientation) throws -> [UInt8] {
        let pixels =
            width * height <= 256
            ? try TestPixels.labelled(width: width, height: height)
            : try TestPixels.rgba8(width: width, height: height) { _, _ in [9, 9, 9, 255] }
        var bytes = try TestRawCoder().encode(pixels, request: EncodeRequest(format: "wiraw")).bytes
        bytes[9] = UInt8(orientation.rawValue)
        return bytes
    }

    @Test func thumbnailBoxIsTurnedToStoredOrientationAndResultShownUpright() throws {
        // Stored 8 × 4, shown 4 × 8 (orientation 6). Box 2 × 4 shown = 4 × 2 stored: the coder's
        // every-2nd-pixel reduction gives it exactly, then it is turned upright.
        let file = try rawFile(width: 8, height: 4, orientation: .right)
        let image = try manager.decode(file, options: DecodeOptions(thumbnail: ThumbnailSize(width: 2, height: 4)))
        #expect((image.width, image.height) == (2, 4))
        #expect(image.orientation == .up)
        #expect(TestPixels.labels(image.pixels) == [[16, 0], [18, 2], [20, 4], [22, 6]])
        #expect((image.sourceWidth, image.sourceHeight) == (8, 4))
    }

    @Test func hostFinishesTheResizeWhenTheCoderReturnsMore() throws {
        // 11 × 11 into 4 × 4: the coder's 2× reduction gives 5 × 5, the host resizes to 4 × 4.
        let file = try rawFile(width: 11, height: 11, orientation: .up)
        let image = try manager.decode(file, options: DecodeOptions(thumbnail: ThumbnailSize(width: 4, height: 4)))
        #expect((image.width, image.height) == (4, 4))
    }

    @Test func orientationIsLeftAloneWhenAsked() throws {
        let file = try rawFile(width: 3, height: 2, orientation: .left)
        let image = try manager.decode(file, options: DecodeOptions(appliesOrientation: false))
        #expect((image.width, image.height) == (3, 2))
        #expect(image.orientation == .left)
        let upright = try manager.decode(file)
        #expect(TestPixels.labels(upright.pixels) == [[2, 5], [1, 4], [0, 3]])
    }

    @Test func pixelLimitRejectsLargeFullDecodes() throws {
        let file = try rawFile(width: 100, height: 100, orientation: .up)
        let error = try #require(throws: ImageCodingError.self) {
            try manager.decode(file, options: DecodeOptions(maxPixelCount: 9_999))
        }
        #expect(error.kind == .tooLarge)
        #expect(error.message == "image too large: 100×100 pixels exceed the limit of 9999 pixels")
        let thumbnail = try manager.decode(
            file, options: DecodeOptions(thumbnail: ThumbnailSize(width: 10, height: 10), maxPixelCount: 9_999))
        #expect((thumbnail.width, thumbnail.height) == (10, 10))
    }

    @Test func encodeShrinksToMaxPixelSizeFirst() throws {
        let pixels = try TestPixels.rgba8(width: 40, height: 20) { _, _ in [1, 2, 3, 255] }
        let bytes = try manager.encode(pixels, options: EncodeOptions(format: "wiraw", maxPixelSize: (10, 10))).bytes
        let info = try manager.probe(bytes)
        #expect((info.width, info.height) == (10, 5))
    }
}
