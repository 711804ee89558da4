import WebImageCore

/// Test images for the transformer suites.
enum TransformTestImages {
    /// A `width` × `height` RGBA16 buffer with `pixel(x, y)` at each position.
    static func rgba16(width: Int, height: Int, pixel: (Int, Int) -> [UInt16]) throws -> PixelBuffer {
        let buffer = try PixelBuffer(width: width, height: height, format: .rgba16)
        for y in 0..<height {
            let row = buffer.row(y).assumingMemoryBound(to: UInt16.self)
            for x in 0..<width {
                let value = pixel(x, y)
                for channel in 0..<4 { row[x * 4 + channel] = value[channel] }
            }
        }
        return buffer
    }

    /// An RGBA16 buffer whose red channel holds the label `y * width + x` (opaque).
    static func labelled16(width: Int, height: Int) throws -> PixelBuffer {
        try rgba16(width: width, height: height) { x, y in [UInt16(y * width + x), 0, 0, 65535] }
    }

    /// A `size` × `size` fully transparent RGBA8 image with an opaque red square covering
    /// `square` (a range of both coordinates).
    static func redSquare(size: Int, square: Range<Int>) throws -> PixelBuffer {
        try TestPixels.rgba8(width: size, height: size) { x, y in
            square.contains(x) && square.contains(y) ? [255, 0, 0, 255] : [0, 0, 0, 0]
        }
    }

    /// Every pixel of `buffer` that is not fully transparent, as (x, y, channels).
    static func visiblePixels(_ buffer: PixelBuffer) -> [(x: Int, y: Int, channels: [Int])] {
        var pixels: [(x: Int, y: Int, channels: [Int])] = []
        for y in 0..<buffer.height {
            for x in 0..<buffer.width {
                let channels = buffer.channels(x: x, y: y)
                if channels[3] != 0 { pixels.append((x, y, channels)) }
            }
        }
        return pixels
    }
}
