import WebImageCoding

/// An open APNG: frames decoded lazily by index (each through libpng as a standalone PNG)
/// and composited onto a canvas with the frames' dispose and blend operations. Only the
/// canvas of the last frame is kept (and the one before it, for dispose-to-previous).
final class APNGAnimationSource: AnimatedImageSource {
    let info: ImageInfo
    private let structure: APNGStructure
    /// Allocated by the first frame decode, after the pixel limit has been checked.
    private var canvas: [UInt8] = []
    private var saved: [UInt8] = []
    private var drawn = -1

    init(structure: APNGStructure, info: ImageInfo) {
        self.structure = structure
        self.info = info
    }

    func frameDuration(at index: Int) -> Int {
        guard index >= 0, index < structure.frames.count else { return 0 }
        return structure.frames[index].durationMilliseconds
    }

    /// The canvas, its saved copy, the output and one decoded frame (4 bytes a pixel each,
    /// 16 in all) are checked against `request.maxByteCount` first; the deadline before every
    /// frame drawn on the way to `index`.
    func decodeFrame(at index: Int, request: DecodeRequest) throws -> DecodedImage {
        guard index >= 0, index < structure.frames.count else {
            throw ImageCodingError(
                .invalidArgument, "frame \(index) does not exist; the APNG has \(structure.frames.count) frames")
        }
        try request.checkPixelCount(width: structure.width, height: structure.height)
        try request.checkByteCount(
            (structure.width * structure.height).multipliedReportingOverflow(by: 16),
            what: "the canvases and a frame")
        let output = try request.makeBuffer(width: structure.width, height: structure.height, format: .rgba8)
        if canvas.isEmpty { canvas = [UInt8](repeating: 0, count: output.width * output.height * 4) }
        if index < drawn {
            canvas = [UInt8](repeating: 0, count: canvas.count)
            drawn = -1
        }
        while drawn < index {
            if drawn >= 0 { dispose(structure.frames[drawn], first: drawn == 0) }
            let next = drawn + 1
            if structure.frames[next].disposal == .previous { saved = canvas }
            drawn = next
            try request.checkDeadline("before frame \(next)")
            try draw(next, request: request)
        }
        canvas.withUnsafeBytes { output.baseAddress.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        return DecodedImage(
            pixels: output, format: PNGImageCoder.format.name, orientation: .up, traits: info.traits)
    }

    /// Clears or restores the region of the frame just shown, before the next one is drawn.
    private func dispose(_ frame: APNGStructure.Frame, first: Bool) {
        switch frame.disposal {
        case .none:
            break
        case .previous where !first && !saved.isEmpty:
            canvas = saved
        case .background, .previous:
            for y in frame.y..<(frame.y + frame.height) {
                let start = (y * structure.width + frame.x) * 4
                canvas.replaceSubrange(
                    start..<(start + frame.width * 4), with: repeatElement(0, count: frame.width * 4))
            }
        }
    }

    /// Decodes frame `index` with libpng and draws it onto the canvas.
    private func draw(_ index: Int, request: DecodeRequest) throws {
        let frame = structure.frames[index]
        let png = structure.framePNG(index)
        var frameRequest = DecodeRequest(pixelFormat: .rgba8, maxPixelCount: request.maxPixelCount)
        frameRequest.maxByteCount = request.maxByteCount
        frameRequest.deadline = request.deadline
        let image: DecodedImage
        do {
            image = try png.withUnsafeBytes { try PNGImageCoder().decode($0, request: frameRequest) }
        } catch let error as ImageCodingError {
            throw ImageCodingError(error.kind, "frame \(index): \(error.message)")
        }
        let source = image.pixels
        for y in 0..<frame.height {
            let row = source.row(y).assumingMemoryBound(to: UInt8.self)
            let start = ((frame.y + y) * structure.width + frame.x) * 4
            for x in 0..<frame.width {
                let target = start + x * 4
                let pixel = (row[x * 4], row[x * 4 + 1], row[x * 4 + 2], row[x * 4 + 3])
                if frame.blend == .source || pixel.3 == 255 {
                    canvas[target] = pixel.0
                    canvas[target + 1] = pixel.1
                    canvas[target + 2] = pixel.2
                    canvas[target + 3] = pixel.3
                } else if pixel.3 != 0 {
                    blendOver(pixel, at: target)
                }
            }
        }
    }

    /// Porter-Duff "over" with straight alpha, rounded to nearest.
    private func blendOver(_ source: (UInt8, UInt8, UInt8, UInt8), at target: Int) {
        let sourceAlpha = Int(source.3)
        let backdropWeight = Int(canvas[target + 3]) * (255 - sourceAlpha)
        let alpha255 = sourceAlpha * 255 + backdropWeight
        let colours = [Int(source.0), Int(source.1), Int(source.2)]
        for channel in 0..<3 {
            let value = colours[channel] * sourceAlpha * 255 + Int(canvas[target + channel]) * backdropWeight
            canvas[target + channel] = UInt8((value + alpha255 / 2) / alpha255)
        }
        canvas[target + 3] = UInt8((alpha255 + 127) / 255)
    }
}
