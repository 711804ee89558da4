import WebImageCore

/// Animation frames built in memory, for the frame-by-frame encoder tests.
public enum TestAnimation {
    /// One RGBA8 frame of `width` × `height` pixels per entry of `durations` (milliseconds);
    /// `pixel(frame, x, y)` gives the four bytes of each pixel.
    public static func frames(
        width: Int, height: Int, durations: [Int], pixel: (_ frame: Int, _ x: Int, _ y: Int) -> [UInt8]
    ) throws -> [AnimationFrame] {
        try durations.enumerated().map { index, duration in
            let buffer = try PixelBuffer(width: width, height: height, format: .rgba8)
            for y in 0..<height {
                let row = buffer.row(y).assumingMemoryBound(to: UInt8.self)
                for x in 0..<width {
                    for (channel, value) in pixel(index, x, y).enumerated() { row[x * 4 + channel] = value }
                }
            }
            return AnimationFrame(image: buffer, durationMilliseconds: duration)
        }
    }
}
