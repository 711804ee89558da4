extension CodersManager {
    /// Reads an image's header with the coder chosen for it.
    /// - Throws: ``ImageCodingError``.
    public func probe(_ bytes: UnsafeRawBufferPointer) throws -> ImageInfo {
        try coder(for: bytes).probe(bytes)
    }

    /// Decodes an image: chooses the coder, decodes (cheaply scaled when a thumbnail is
    /// asked for and the coder can), finishes the thumbnail resize and turns the pixels
    /// upright. The limits of `options` (pixels, bytes, time) are passed to the coder,
    /// which checks them before it allocates and in its row loops; the decode holds its
    /// share of `options.concurrentBudget` while it runs.
    /// - Throws: ``ImageCodingError``.
    public func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions = DecodeOptions()) throws
        -> DecodedImage
    {
        try decodeOutcome(bytes, options: options).image
    }

    /// What ``decode(_:options:)`` made and learned on the way: the image, the coder that
    /// decoded it, and the header it probed (nil when it needed none), so that a caller who
    /// needs the header too (the image manager, for the frame count) does not choose the coder
    /// and probe the bytes again.
    struct DecodeOutcome {
        var image: DecodedImage
        let coder: any ImageCoder
        let info: ImageInfo?
    }

    /// ``decode(_:options:)`` with the coder and the probed header.
    func decodeOutcome(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws -> DecodeOutcome {
        let coder = try coder(for: bytes, servedAs: options.servedContentType)
        guard let budget = options.concurrentBudget else {
            let (image, info) = try decode(bytes, coder: coder, info: nil, options: options)
            return DecodeOutcome(image: image, coder: coder, info: info)
        }
        let info = try coder.probe(bytes)
        var bytesHeld = TransformFootprint.bytes(
            width: info.width, height: info.height, bytesPerPixel: options.pixelFormat.bytesPerPixel)
        if options.maxByteCount > 0 { bytesHeld = min(bytesHeld, options.maxByteCount) }
        let overBudget: any Error = ImageCodingError(
            .tooLarge,
            "image too large: decoding \(info.width)×\(info.height) pixels needs up to \(bytesHeld) bytes, over "
                + "the limit of \(budget.byteCount) bytes for everything running at once "
                + "(\(ConcurrentByteBudget.environmentVariable))")
        let (image, _) = try budget.withReservation(bytesHeld, orThrow: overBudget) {
            try decode(bytes, coder: coder, info: info, options: options)
        }
        return DecodeOutcome(image: image, coder: coder, info: info)
    }

    /// ``decode(_:options:)`` with the coder chosen, outside the concurrent budget; a thumbnail
    /// needs the header: `info` when it was probed already, else probed here. Returns the
    /// image and the header, if any was probed.
    private func decode(
        _ bytes: UnsafeRawBufferPointer, coder: any ImageCoder, info probed: ImageInfo?, options: DecodeOptions
    ) throws -> (image: DecodedImage, info: ImageInfo?) {
        let deadline = options.startDeadline()
        var request = options.request(deadline: deadline)
        var storedTarget: (width: Int, height: Int)?
        var info = probed
        if let thumbnail = options.thumbnail {
            let header = try probed ?? coder.probe(bytes)
            info = header
            let orientation = options.appliesOrientation ? header.orientation : .up
            let shownWidth = orientation.swapsWidthAndHeight ? header.height : header.width
            let shownHeight = orientation.swapsWidthAndHeight ? header.width : header.height
            let target = thumbnail.targetSize(sourceWidth: shownWidth, sourceHeight: shownHeight)
            let stored = orientation.swapsWidthAndHeight ? (target.height, target.width) : (target.width, target.height)
            if stored != (header.width, header.height) {
                storedTarget = stored
                request.thumbnailBox = stored
            }
        }
        var image = try coder.decode(bytes, request: request)
        try deadline?.check()
        if let storedTarget, (image.width, image.height) != storedTarget {
            image.pixels = try ImageResizer.resize(
                image.pixels, width: storedTarget.width, height: storedTarget.height, deadline: deadline)
        }
        if options.appliesOrientation && image.orientation != .up {
            image.pixels = try OrientationTransform.apply(image.orientation, to: image.pixels)
            image.orientation = .up
        }
        return (image, info)
    }

    /// Encodes pixels in `options.format`, first shrinking them to `options.maxPixelSize`.
    /// - Throws: ``ImageCodingError``.
    public func encode(_ pixels: PixelBuffer, options: EncodeOptions) throws -> EncodedImageData {
        let (coder, format) = try coder(forFormat: options.format)
        guard format.capabilities.contains(.encode) else {
            throw ImageCodingError(.unsupportedOperation, "the \(format.name) coder cannot encode")
        }
        let input = try options.fitted(pixels)
        let request = options.request(format: format.name)
        return try coder.encode(input, request: request)
    }
}

extension CodersManager {
    /// ``probe(_:)`` for an array of bytes.
    public func probe(_ bytes: [UInt8]) throws -> ImageInfo {
        try bytes.withUnsafeBytes { try probe($0) }
    }

    /// ``decode(_:options:)`` for an array of bytes.
    public func decode(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws -> DecodedImage {
        try bytes.withUnsafeBytes { try decode($0, options: options) }
    }
}
