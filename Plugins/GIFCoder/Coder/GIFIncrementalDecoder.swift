import WebImageCoding

/// An incremental GIF decode: the bytes so far are scanned again after each append (cheap:
/// no LZW decoding), and the first frame is shown as soon as it is complete.
final class GIFIncrementalDecoder: IncrementalImageDecoder {
    private let request: DecodeRequest
    private var bytes: [UInt8] = []
    private var isFinal = false
    /// The scan of the bytes so far, made by the last append.
    private var latest: GIFFile?

    init(request: DecodeRequest) {
        self.request = request
    }

    /// Frames whose data has fully arrived.
    private(set) var completeFrameCount = 0

    func append(_ newBytes: UnsafeRawBufferPointer, isFinal: Bool) throws {
        bytes.append(contentsOf: newBytes)
        self.isFinal = isFinal
        guard bytes.count >= 6 else {
            if isFinal { throw ImageCodingError(.truncatedData, "truncated GIF: the file ends inside the header") }
            return
        }
        let file = try scan()
        latest = file
        completeFrameCount = file.map { Int($0.info.frame_count) } ?? 0
        if isFinal, let file, file.info.complete == 0 {
            throw ImageCodingError(.truncatedData, "truncated GIF: the file ends inside frame \(completeFrameCount)")
        }
    }

    func currentImage() throws -> DecodedImage? {
        guard let file = latest, file.info.frame_count > 0 else { return nil }
        let partial = !(isFinal && file.info.complete != 0)
        return try file.decodeFrame(0, request: request, partial: partial)
    }

    /// The frames so far, or nil while the screen descriptor has not arrived.
    private func scan() throws -> GIFFile? {
        do {
            return try bytes.withUnsafeBytes {
                try GIFFile(PinnedBytes(copying: $0), allowPartial: true, maxPixelCount: request.maxPixelCount)
            }
        } catch let error as ImageCodingError where error.kind == .truncatedData && !isFinal {
            return nil
        }
    }
}
