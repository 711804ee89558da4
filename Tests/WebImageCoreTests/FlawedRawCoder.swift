import WebImageCore

/// ``TestRawCoder`` with one deliberate breach of the coder contract, for showing that
/// the coder verifier notices it. Not progressive and not animated.
struct FlawedRawCoder: RawCoderForwarding {
    enum Flaw {
        /// Every error is a plain Swift error instead of an `ImageCodingError`.
        case throwsForeignErrors
        /// Every error becomes `.internalError`.
        case throwsInternalErrors
        /// `probe` reports one pixel more in width than `decode` gives.
        case probeSizeDisagrees
        /// A thumbnail box at least the image's size gives an image twice the size.
        case upscalesThumbnails
        /// Bytes after the pixels make `decode` fail with `.internalError`.
        case rejectsTrailingBytes
    }

    /// The plain Swift error of ``Flaw/throwsForeignErrors``.
    struct ForeignError: Error {}

    let flaw: Flaw
    private let base = TestRawCoder()

    init(_ flaw: Flaw) {
        self.flaw = flaw
    }

    func probe(_ bytes: UnsafeRawBufferPointer) throws -> ImageInfo {
        var info = try translatingErrors { try base.probe(bytes) }
        if flaw == .probeSizeDisagrees { info.width += 1 }
        return info
    }

    func decode(_ bytes: UnsafeRawBufferPointer, request: DecodeRequest) throws -> DecodedImage {
        let image = try translatingErrors { try base.decode(bytes, request: request) }
        switch flaw {
        case .upscalesThumbnails:
            guard let box = request.thumbnailBox, box.width >= image.width, box.height >= image.height else {
                return image
            }
            let pixels = try PixelBuffer(width: image.width * 2, height: image.height * 2, format: .rgba8)
            return DecodedImage(pixels: pixels, format: image.format, orientation: image.orientation)
        case .rejectsTrailingBytes:
            let header = try TestRawCoder.header(bytes)
            if bytes.count > header.pixelOffset + header.durations.count * header.frameBytes {
                throw ImageCodingError(.internalError, "unexpected bytes after the pixels")
            }
            return image
        case .throwsForeignErrors, .throwsInternalErrors, .probeSizeDisagrees:
            return image
        }
    }

    func encode(_ image: PixelBuffer, request: EncodeRequest) throws -> EncodedImageData {
        try translatingErrors { try base.encode(image, request: request) }
    }

    /// Runs `body`, replacing its errors as the flaw says.
    private func translatingErrors<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as ImageCodingError {
            switch flaw {
            case .throwsForeignErrors: throw ForeignError()
            case .throwsInternalErrors: throw ImageCodingError(.internalError, error.message)
            case .probeSizeDisagrees, .upscalesThumbnails, .rejectsTrailingBytes: throw error
            }
        }
    }
}
