import CGIFShim
import WebImageCoding

/// A GIF opened by the shim over bytes it reads in place: the frame table and the canvas of
/// the last frame composited (frames decode fastest in order).
final class GIFFile {
    let info: gif_shim_info
    /// The bytes the shim reads, valid for this object's life.
    let bytes: UnsafeRawBufferPointer
    /// What keeps `bytes` valid, when the caller does not for this object's whole life.
    private let keeper: PinnedBytes?
    private let animation: OpaquePointer

    /// Scans `bytes` without copying them: they must stay valid and unchanged while this
    /// object lives, which `keeper` (held until then) may ensure. With `allowPartial`, data
    /// that ends inside a frame gives the frames complete so far instead of `.truncatedData`.
    init(reading bytes: UnsafeRawBufferPointer, keeping keeper: PinnedBytes?, allowPartial: Bool, maxPixelCount: Int)
        throws
    {
        guard let start = bytes.baseAddress, !bytes.isEmpty else {
            throw ImageCodingError(.truncatedData, "truncated GIF: the data is empty")
        }
        var animation: OpaquePointer?
        var info = gif_shim_info()
        try ShimCall.gif.run {
            gif_shim_open(
                start.assumingMemoryBound(to: UInt8.self), bytes.count, allowPartial, UInt64(max(0, maxPixelCount)),
                &animation, &info, &$0)
        }
        self.bytes = bytes
        self.keeper = keeper
        self.animation = animation!
        self.info = info
    }

    /// Scans `bytes` pinned for this object's life (no copy).
    convenience init(_ bytes: PinnedBytes, allowPartial: Bool, maxPixelCount: Int) throws {
        try self.init(reading: bytes.buffer, keeping: bytes, allowPartial: allowPartial, maxPixelCount: maxPixelCount)
    }

    deinit {
        gif_shim_close(animation)
    }

    /// How long frame `index` shows, in milliseconds.
    func duration(of index: Int) -> Int {
        Int(gif_shim_frame_duration(animation, UInt32(index)))
    }

    /// The composited canvas of frame `index`, allocated through `request`. The shim's canvas
    /// and the output (4 bytes a pixel each) are checked against `request.maxByteCount` first.
    func decodeFrame(_ index: Int, request: DecodeRequest, partial: Bool = false) throws -> DecodedImage {
        guard index >= 0, index < Int(info.frame_count) else {
            throw ImageCodingError(
                .invalidArgument, "frame \(index) does not exist; the GIF has \(info.frame_count) frames")
        }
        try request.checkPixelCount(width: Int(info.width), height: Int(info.height))
        try request.checkByteCount(
            (Int(info.width) * Int(info.height)).multipliedReportingOverflow(by: 8), what: "the canvas and a frame")
        try request.checkDeadline("before frame \(index)")
        let pixels = try request.makeBuffer(width: Int(info.width), height: Int(info.height), format: .rgba8)
        try ShimCall.gif.run {
            gif_shim_decode_frame(animation, UInt32(index), pixels.baseAddress, pixels.bytesPerRow, &$0)
        }
        var traits = info.imageInfo.traits
        if partial { traits.insert(.partial) }
        return DecodedImage(pixels: pixels, format: GIFImageCoder.format.name, orientation: .up, traits: traits)
    }
}
