import CPNGShim
import WebImageCoding

/// The animation inside an APNG file (`acTL`, `fcTL`, `fdAT` chunks), read without
/// decompressing anything. Debian's libpng has no APNG support, so each frame is handed to
/// libpng as a standalone PNG made by ``framePNG(_:)``.
struct APNGStructure {
    /// How a frame's region is treated before the next frame is drawn (`fcTL` dispose_op).
    enum Disposal: UInt8 {
        case none = 0
        case background = 1
        case previous = 2
    }

    /// How a frame is drawn onto the canvas (`fcTL` blend_op).
    enum Blend: UInt8 {
        case source = 0
        case over = 1
    }

    /// One frame: its region of the canvas, timing, operations and compressed pixels.
    struct Frame {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
        /// Milliseconds; delays of 10 ms or less count as 100 ms, as browsers show them.
        var durationMilliseconds: Int
        var disposal: Disposal
        var blend: Blend
        /// The zlib stream of the frame's pixels (its IDAT or fdAT payloads, in order).
        var data: [UInt8] = []
    }

    let width: Int
    let height: Int
    /// `num_plays`: 0 = forever.
    let loopCount: Int
    let frames: [Frame]
    /// The IHDR payload, and the chunks before the image data a frame's PNG needs (PLTE, tRNS, ...).
    private let ihdr: [UInt8]
    private let headerChunks: [UInt8]

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Parses `bytes`; nil for a PNG without `acTL` (a still image) or for bytes that are not PNG.
    /// - Throws: ``ImageCodingError`` `.truncatedData` when the data ends before the last
    ///   frame, `.corruptData` for inconsistent animation chunks.
    init?(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count >= 8, bytes.prefix(8).elementsEqual(Self.signature) else { return nil }
        var reader = ChunkReader(bytes: bytes)
        var ihdr: [UInt8] = []
        var header: [UInt8] = []
        var announced: Int?
        var plays = 0
        var frames: [Frame] = []
        var imageDataSeen = false
        /// The default image (IDAT) is frame 0 when an fcTL comes before it.
        var defaultImageIsFrame = false
        var ended = false
        while let chunk = try reader.next(animated: announced != nil) {
            switch chunk.type {
            case "IHDR":
                ihdr = Array(chunk.payload)
            case "acTL":
                guard chunk.payload.count == 8 else { throw Self.corrupt("acTL has \(chunk.payload.count) bytes") }
                announced = Self.uint32(chunk.payload, 0)
                plays = Self.uint32(chunk.payload, 4)
            case "fcTL":
                frames.append(try Self.frame(chunk.payload))
            case "IDAT":
                // acTL must come before the image data: without it this is a still PNG.
                if announced == nil { return nil }
                if !imageDataSeen { defaultImageIsFrame = frames.count == 1 }
                imageDataSeen = true
                if defaultImageIsFrame { frames[0].data += chunk.payload }
            case "fdAT":
                guard chunk.payload.count >= 4, !frames.isEmpty else { throw Self.corrupt("fdAT without fcTL") }
                frames[frames.count - 1].data += chunk.payload.dropFirst(4)
            case "IEND":
                ended = true
            default:
                if !imageDataSeen { header += chunk.raw }
            }
            if ended { break }
        }
        guard let announced else { return nil }
        guard ihdr.count == 13 else { throw Self.corrupt("no valid IHDR chunk") }
        let complete = frames.filter { !$0.data.isEmpty }
        if complete.count < announced && !ended {
            throw ImageCodingError(
                .truncatedData, "truncated PNG: the file ends after \(complete.count) of \(announced) APNG frames")
        }
        guard complete.count == announced, announced > 0 else {
            throw Self.corrupt("acTL announces \(announced) frames; the file has \(complete.count)")
        }
        width = Self.uint32(ihdr[...], 0)
        height = Self.uint32(ihdr[...], 4)
        for (index, frame) in complete.enumerated() {
            guard frame.width > 0, frame.height > 0, frame.x + frame.width <= width, frame.y + frame.height <= height
            else { throw Self.corrupt("frame \(index) lies outside the \(width)×\(height) canvas") }
        }
        self.frames = complete
        self.loopCount = plays
        self.ihdr = ihdr
        self.headerChunks = header
    }

    /// A standalone PNG of frame `index`: the file's header chunks with the frame's size and pixels.
    func framePNG(_ index: Int) -> [UInt8] {
        let frame = frames[index]
        var frameHeader = ihdr
        for (offset, value) in [(0, frame.width), (4, frame.height)] {
            for byte in 0..<4 { frameHeader[offset + byte] = UInt8(truncatingIfNeeded: value >> (24 - 8 * byte)) }
        }
        return Self.signature + APNGWriter.chunk("IHDR", frameHeader) + headerChunks
            + APNGWriter.chunk("IDAT", frame.data)
            + APNGWriter.chunk("IEND", [])
    }

    private static func uint32<Bytes: Collection<UInt8>>(_ bytes: Bytes, _ offset: Int) -> Int {
        bytes.dropFirst(offset).prefix(4).reduce(0) { $0 << 8 | Int($1) }
    }

    private static func frame(_ payload: UnsafeRawBufferPointer) throws -> Frame {
        guard payload.count == 26 else { throw corrupt("fcTL has \(payload.count) bytes") }
        let delayNumerator = uint32(payload, 20) >> 16
        let storedDenominator = uint32(payload, 22) >> 16
        let delayDenominator = storedDenominator == 0 ? 100 : storedDenominator
        let milliseconds = (delayNumerator * 1000 + delayDenominator / 2) / delayDenominator
        guard let disposal = Disposal(rawValue: payload[24]),
            let blend = Blend(rawValue: payload[25])
        else { throw corrupt("fcTL has an unknown dispose or blend operation") }
        return Frame(
            x: uint32(payload, 12), y: uint32(payload, 16), width: uint32(payload, 4), height: uint32(payload, 8),
            durationMilliseconds: milliseconds <= 10 ? 100 : milliseconds, disposal: disposal, blend: blend)
    }

    private static func corrupt(_ detail: String) -> ImageCodingError {
        ImageCodingError(.corruptData, "corrupt APNG: \(detail)")
    }
}

/// Walks the chunks of a PNG held in memory.
private struct ChunkReader {
    struct Chunk {
        var type: String
        var payload: UnsafeRawBufferPointer
        /// Length, type, payload and CRC as stored.
        var raw: UnsafeRawBufferPointer
    }

    /// The caller's bytes, read in place (valid for the reader's life).
    let bytes: UnsafeRawBufferPointer
    var offset = 8

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The next chunk; nil at the end of the data. A chunk cut short is `.truncatedData`
    /// in an animation and the end of reading otherwise.
    mutating func next(animated: Bool) throws -> Chunk? {
        guard offset + 8 <= bytes.count else { return nil }
        let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
        let end = offset + 8 + length + 4
        guard length < Int(Int32.max), end <= bytes.count else {
            if animated {
                throw ImageCodingError(.truncatedData, "truncated PNG: the file ends inside a \(type) chunk")
            }
            return nil
        }
        defer { offset = end }
        return Chunk(
            type: type, payload: UnsafeRawBufferPointer(rebasing: bytes[(offset + 8)..<(end - 4)]),
            raw: UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
    }
}
