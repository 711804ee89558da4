import CGIFShim
import WebImageCore

/// A GIF opened by the shim over bytes this object owns: the frame table and the canvas
/// of the last frame composited (frames decode fastest in order).
final class GIFFile {
    let info: gif_shim_info
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private let animation: OpaquePointer

    /// Scans a copy of `source`. With `allowPartial`, data that ends inside a frame gives the
    /// frames complete so far instead of `.truncatedData`.
    init(copying source: UnsafeRawBufferPointer, allowPartial: Bool, maxPixelCount: Int) throws {
        guard !source.isEmpty else { throw ImageCodingError(.truncatedData, "truncated GIF: the data is empty") }
        let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: source.count)
        _ = bytes.initialize(from: source)
        var animation: OpaquePointer?
        var info = gif_shim_info()
        do {
            try ShimCall.gif.run {
                gif_shim_open(
                    bytes.baseAddress!, bytes.count, allowPartial, UInt64(max(0, maxPixelCount)), &animation,
                    &info, &$0)
            }
        } catch {
            bytes.deallocate()
            throw error
        }
        self.bytes = bytes
        self.animation = animation!
        self.info = info
    }

    deinit {
        gif_shim_close(animation)
        bytes.deallocate()
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
