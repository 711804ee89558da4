import Synchronization
import WebImageCore

/// A tiny uncompressed test format, "WIRAW": the 5 magic bytes `WIRAW`, width and height
/// (UInt16 little endian), the EXIF orientation (1 byte), the frame count (1 byte), each
/// frame's duration in milliseconds (UInt16 LE each), then width × height RGBA8 pixels per frame.
///
/// It exercises every part of the coder contract (probe, thumbnails, incremental decoding,
/// animation, encoding) without a native library.
struct TestRawCoder: ProgressiveImageCoder, AnimatedImageCoder {
    static let magic: [UInt8] = Array("WIRAW".utf8)
    static let format = ImageFormat(
        name: "wiraw", mimeType: "image/x-wiraw",
        capabilities: [.decode, .encode, .incrementalDecode, .decodeAnimation, .encodeAnimation, .scaleWhileDecoding])

    var formats: [ImageFormat] { [Self.format] }

    struct Header {
        var width: Int
        var height: Int
        var orientation: ImageOrientation
        var durations: [Int]
        var pixelOffset: Int
        var frameBytes: Int { width * height * 4 }
    }

    func canDecode(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 5 && Array(bytes.prefix(5)) == Self.magic
    }

    static func header(_ bytes: UnsafeRawBufferPointer) throws -> Header {
        guard bytes.count >= 11 else {
            throw ImageCodingError(.truncatedData, "WIRAW header needs 11 bytes, got \(bytes.count)")
        }
        guard Array(bytes.prefix(5)) == magic else { throw ImageCodingError(.unsupportedFormat, "not a WIRAW file") }
        let width = Self.uint16(bytes, at: 5)
        let height = Self.uint16(bytes, at: 7)
        let frames = Int(bytes[10])
        guard width > 0, height > 0, frames > 0 else {
            throw ImageCodingError(.corruptData, "WIRAW header has a zero size")
        }
        guard bytes.count >= 11 + frames * 2 else {
            throw ImageCodingError(.truncatedData, "WIRAW durations are cut off")
        }
        let durations = (0..<frames).map { uint16(bytes, at: 11 + $0 * 2) }
        return Header(
            width: width, height: height, orientation: ImageOrientation(exifValue: UInt32(bytes[9])),
            durations: durations, pixelOffset: 11 + frames * 2)
    }

    /// Reads a little-endian UInt16 at `offset`.
    static func uint16(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
        let low = Int(bytes[offset])
        let high = Int(bytes[offset + 1])
        return low | (high << 8)
    }

    func probe(_ bytes: UnsafeRawBufferPointer) throws -> ImageInfo {
        let header = try Self.header(bytes)
        return ImageInfo(
            format: "wiraw", width: header.width, height: header.height, frameCount: header.durations.count,
            loopCount: 0, orientation: header.orientation, bitsPerComponent: 8,
            traits: header.durations.count > 1 ? [.hasAlpha, .animated] : [.hasAlpha])
    }

    func decode(_ bytes: UnsafeRawBufferPointer, request: DecodeRequest) throws -> DecodedImage {
        try decodeFrame(bytes, header: Self.header(bytes), index: 0, request: request, allowPartial: false)
    }

    /// Decodes frame `index`; with a thumbnail box, keeps every k-th pixel (k = the integer
    /// reduction that stays at least the box), as a stand-in for a cheap scaled decode.
    static func decodeFrame(
        _ bytes: UnsafeRawBufferPointer, header: Header, index: Int, request: DecodeRequest, allowPartial: Bool
    ) throws -> DecodedImage {
        let start = header.pixelOffset + index * header.frameBytes
        let available = max(0, min(bytes.count - start, header.frameBytes))
        if available < header.frameBytes && !allowPartial {
            throw ImageCodingError(.truncatedData, "WIRAW pixels end after \(available) of \(header.frameBytes) bytes")
        }
        var step = 1
        if let box = request.thumbnailBox {
            step = max(1, min(header.width / max(box.width, 1), header.height / max(box.height, 1)))
        }
        let width = header.width / step
        let height = header.height / step
        let buffer = try request.makeBuffer(width: width, height: height, format: .rgba8)
        let rowsAvailable = available / (header.width * 4)
        for y in 0..<height {
            let row = buffer.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width {
                let sourceRow = y * step
                for channel in 0..<4 {
                    row[x * 4 + channel] =
                        sourceRow < rowsAvailable
                        ? bytes[start + (sourceRow * header.width + x * step) * 4 + channel] : 0
                }
            }
        }
        let complete = available == header.frameBytes
        return DecodedImage(
            pixels: buffer, format: "wiraw", orientation: header.orientation, sourceWidth: header.width,
            sourceHeight: header.height, traits: complete ? [.hasAlpha] : [.hasAlpha, .partial])
    }

    func decodeFrame(
        _ bytes: UnsafeRawBufferPointer, header: Header, index: Int, request: DecodeRequest, allowPartial: Bool
    ) throws -> DecodedImage {
        try Self.decodeFrame(bytes, header: header, index: index, request: request, allowPartial: allowPartial)
    }

    func encode(_ image: PixelBuffer, request: EncodeRequest) throws -> EncodedImageData {
        try encodeAnimation([AnimationFrame(image: image, durationMilliseconds: 0)], request: request)
    }

    func encodeAnimation(_ frames: [AnimationFrame], request: EncodeRequest) throws -> EncodedImageData {
        guard let first = frames.first, first.image.format == .rgba8 else {
            throw ImageCodingError(.invalidArgument, "WIRAW encodes RGBA8 frames only")
        }
        var bytes = Self.magic
        bytes += [UInt8(first.image.width & 0xFF), UInt8(first.image.width >> 8)]
        bytes += [UInt8(first.image.height & 0xFF), UInt8(first.image.height >> 8), 1, UInt8(frames.count)]
        for frame in frames {
            bytes += [UInt8(frame.durationMilliseconds & 0xFF), UInt8(frame.durationMilliseconds >> 8)]
        }
        for frame in frames { bytes += frame.image.packedBytes() }
        return try EncodedImageData(copying: bytes, allocator: request.allocator)
    }

    func makeIncrementalDecoder(request: DecodeRequest) throws -> any IncrementalImageDecoder {
        Incremental(request: request)
    }

    func openAnimation(_ bytes: [UInt8]) throws -> any AnimatedImageSource {
        try Animation(bytes: bytes)
    }

    /// The address of the bytes each animation opened over caller-kept bytes read (the plugin ABI's path).
    static let keptBytesOpened = TrackedMutex<[Int]>([])

    func openAnimation(reading bytes: UnsafeRawBufferPointer) throws -> any AnimatedImageSource {
        Self.keptBytesOpened.withLock { $0.append(Int(bitPattern: bytes.baseAddress)) }
        return try Animation(bytes: Array(bytes))
    }

    final class Incremental: IncrementalImageDecoder {
        let request: DecodeRequest
        var data: [UInt8] = []
        init(request: DecodeRequest) { self.request = request }

        func append(_ bytes: UnsafeRawBufferPointer, isFinal: Bool) throws {
            data += bytes
            if data.count >= 5 && Array(data.prefix(5)) != TestRawCoder.magic {
                throw ImageCodingError(.corruptData, "not a WIRAW stream")
            }
        }

        func currentImage() throws -> DecodedImage? {
            try data.withUnsafeBytes { bytes in
                guard let header = try? TestRawCoder.header(bytes), bytes.count > header.pixelOffset + header.width * 4
                else { return nil }
                return try TestRawCoder.decodeFrame(
                    bytes, header: header, index: 0, request: request, allowPartial: true)
            }
        }
    }

    final class Animation: AnimatedImageSource {
        let bytes: [UInt8]
        let header: Header
        let info: ImageInfo
        init(bytes: [UInt8]) throws {
            self.bytes = bytes
            header = try bytes.withUnsafeBytes { try TestRawCoder.header($0) }
            info = try bytes.withUnsafeBytes { try TestRawCoder().probe($0) }
        }

        func frameDuration(at index: Int) -> Int { header.durations[index] }

        func decodeFrame(at index: Int, request: DecodeRequest) throws -> DecodedImage {
            try bytes.withUnsafeBytes {
                try TestRawCoder.decodeFrame($0, header: header, index: index, request: request, allowPartial: false)
            }
        }
    }
}
