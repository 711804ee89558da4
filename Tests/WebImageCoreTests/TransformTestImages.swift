import WebImageCore

/// Test images for the transformer suites.
enum TransformTestImages {
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
