import CReferenceDecoders
import WebImageCLISupport
import WebImageCore

/// The plain C library path (``CReferenceDecoders``) a benchmark compares a plugin with:
/// libpng, libjpeg-turbo, giflib, libwebp or libheif called directly, writing tightly packed RGBA8.
struct ReferenceDecoder: BenchmarkReference {
    /// What the reference does, for people.
    let summary: String
    /// Output size in pixels.
    let width: Int
    let height: Int
    private let decodeInto: (UnsafePointer<UInt8>, Int, UnsafeMutableRawPointer, Int) -> Int32
    private let output: ReferenceOutputBuffer

    init(
        summary: String, width: Int, height: Int,
        decodeInto: @escaping (UnsafePointer<UInt8>, Int, UnsafeMutableRawPointer, Int) -> Int32
    ) {
        self.summary = summary
        self.width = width
        self.height = height
        self.decodeInto = decodeInto
        self.output = ReferenceOutputBuffer(size: width * height * 4)
    }

    /// The reference for an image in `info.format`, doing the job of a plugin decode with
    /// the thumbnail box `storedBox` (stored pixels; nil for full size):
    /// - `png`: a full-size libpng decode, also for thumbnails (libpng has no scaled
    ///   decode; the plugin too reads every row).
    /// - `jpeg`: a libjpeg-turbo decode at the DCT scale the JPEG plugin picks for the box,
    ///   without the host's final resize.
    /// - `heic`, `avif`: libheif's primary-image decode to RGBA (transformations applied), full
    ///   size even for thumbnails; HEVC through libheif's own libde265 plugin.
    /// Neither applies EXIF orientation.
    /// - Parameter api: `.lowLevel` (libpng's read API with the plugin's transforms) or
    ///   `.simplified` (libpng's `png_image` API, the performance anchors' raw C); JPEG has one path.
    static func make(
        for info: ImageInfo, bytes: UnsafeRawBufferPointer, storedBox: (width: Int, height: Int)?,
        api: ReferenceAPI = .lowLevel, allFrames: Bool = false
    ) -> BenchmarkReferenceAvailability {
        guard let start = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), !bytes.isEmpty else {
            return .unavailable("the file is empty")
        }
        var width: UInt32 = 0
        var height: UInt32 = 0
        switch info.format {
        case "png":
            guard reference_png_probe(start, bytes.count, &width, &height, nil) == REFERENCE_OK else {
                return .unavailable("libpng cannot read the header: \(lastError)")
            }
            let summary = storedBox == nil ? "libpng full-size decode" : "libpng full-size decode (libpng cannot scale)"
            if api == .simplified {
                return .available(
                    ReferenceDecoder(
                        summary: "\(summary), simplified API (png_image)", width: Int(width), height: Int(height)
                    ) { bytes, size, output, outputSize in
                        reference_png_decode_simplified(bytes, size, output, outputSize)
                    })
            }
            return .available(
                ReferenceDecoder(summary: summary, width: Int(width), height: Int(height)) {
                    bytes, size, output, outputSize in
                    reference_png_decode(bytes, size, 0, output, outputSize)
                })
        case "jpeg":
            let eighths = ThumbnailPlan.jpegScaleEighths(width: info.width, height: info.height, box: storedBox)
            guard reference_jpeg_probe(start, bytes.count, UInt32(eighths), 8, &width, &height) == REFERENCE_OK else {
                return .unavailable("libjpeg-turbo cannot read the header: \(lastError)")
            }
            let summary =
                eighths == 8
                ? "libjpeg-turbo full-size decode" : "libjpeg-turbo DCT-scaled decode at \(eighths)/8, no resize"
            return .available(
                ReferenceDecoder(summary: summary, width: Int(width), height: Int(height)) {
                    bytes, size, output, outputSize in
                    reference_jpeg_decode_scaled(bytes, size, UInt32(eighths), 8, output, outputSize)
                })
        case "gif":
            var frames: UInt32 = 0
            guard reference_gif_probe(start, bytes.count, &width, &height, &frames) == REFERENCE_OK, frames > 0 else {
                return .unavailable("giflib cannot read the file: \(lastError)")
            }
            let lastFrame = allFrames ? frames - 1 : 0
            let summary =
                allFrames
                ? "giflib DGifSlurp, all \(frames) frames composited"
                : "giflib DGifSlurp (all frames read), frame 0 composited"
            return .available(
                ReferenceDecoder(summary: summary, width: Int(width), height: Int(height)) {
                    bytes, size, output, outputSize in
                    reference_gif_decode(bytes, size, lastFrame, output, outputSize)
                })
        case "webp":
            var frames: UInt32 = 0
            guard reference_webp_probe(start, bytes.count, &width, &height, &frames) == REFERENCE_OK, frames > 0 else {
                return .unavailable("libwebp cannot read the file: \(lastError)")
            }
            if frames > 1 || allFrames {
                let lastFrame = allFrames ? frames - 1 : 0
                let summary = "libwebp WebPAnimDecoder, frames 0...\(lastFrame)"
                return .available(
                    ReferenceDecoder(summary: summary, width: Int(width), height: Int(height)) {
                        bytes, size, output, outputSize in
                        reference_webp_animation_frame(bytes, size, lastFrame, output, outputSize, nil)
                    })
            }
            return .available(
                ReferenceDecoder(summary: "libwebp WebPDecodeRGBAInto", width: Int(width), height: Int(height)) {
                    bytes, size, output, outputSize in
                    reference_webp_decode(bytes, size, output, outputSize)
                })
        case "heic", "avif":
            guard reference_heif_probe(start, bytes.count, &width, &height) == REFERENCE_OK else {
                return .unavailable("libheif cannot read the file: \(lastError)")
            }
            let decoder = info.format == "heic" ? "libde265 (libheif's own plugin)" : "libheif's default AV1 decoder"
            let summary =
                storedBox == nil
                ? "libheif heif_decode_image to RGBA, \(decoder)"
                : "libheif heif_decode_image to RGBA, \(decoder), full size (no thumbnail)"
            return .available(
                ReferenceDecoder(summary: summary, width: Int(width), height: Int(height)) {
                    bytes, size, output, outputSize in
                    reference_heif_decode(bytes, size, output, outputSize)
                })
        default:
            return .unavailable("no reference decoder for format '\(info.format)'")
        }
    }

    /// Decodes once into ``output``, the one RGBA8 buffer the reference reuses for every
    /// round (the fastest way a C program can call the library: no fresh pages to fault in).
    /// - Throws: ``CLIError`` with the library's message when decoding fails.
    func decode(_ bytes: UnsafeRawBufferPointer) throws {
        let start = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        guard decodeInto(start, bytes.count, output.pointer, output.size) == REFERENCE_OK else {
            throw CLIError("the reference decoder failed: \(Self.lastError)")
        }
    }

    private static var lastError: String { String(cString: reference_last_error()) }
}
