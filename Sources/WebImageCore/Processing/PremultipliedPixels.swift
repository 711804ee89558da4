/// Conversions between rows of straight-alpha pixels and premultiplied `SIMD4<Float>`
/// pixels, the space every filtering transformer works in.
///
/// A premultiplied pixel holds (red × α, green × α, blue × α, alpha) in channel units,
/// α = alpha / maximum; so a fully transparent pixel is all zero whatever colour it
/// stored, and averaging never pulls that colour into visible pixels.
enum PremultipliedPixels {
    /// Premultiplies `count` pixels from `source` into `destination`.
    @inlinable
    static func load<Channel: FixedWidthInteger & UnsignedInteger>(
        _ source: UnsafePointer<Channel>, count: Int, into destination: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        for index in 0..<count { destination[index] = premultiplied(source + index * 4) }
    }

    /// The premultiplied value of the one pixel at `pixel`.
    @inline(__always)
    static func premultiplied<Channel: FixedWidthInteger & UnsignedInteger>(
        _ pixel: UnsafePointer<Channel>
    ) -> SIMD4<Float> {
        let straight = SIMD4(Float(pixel[0]), Float(pixel[1]), Float(pixel[2]), Float(pixel[3]))
        let alpha = straight.w * (1 / Float(Channel.max))
        return straight * SIMD4(alpha, alpha, alpha, 1)
    }

    /// Un-premultiplies `count` pixels into `destination`, each channel clamped to the
    /// channel's range and rounded to nearest (halves up). A pixel whose alpha rounds to
    /// zero is stored as transparent black.
    @inlinable
    static func store<Channel: FixedWidthInteger & UnsignedInteger>(
        _ source: UnsafePointer<SIMD4<Float>>, count: Int, into destination: UnsafeMutablePointer<Channel>
    ) {
        let maxValue = Float(Channel.max)
        for index in 0..<count {
            let premultiplied = source[index]
            let pixel = destination + index * 4
            guard premultiplied.w >= 0.5 else {
                for component in 0..<4 { pixel[component] = 0 }
                continue
            }
            let alpha = min(premultiplied.w, maxValue)
            let colourScale = maxValue / alpha
            let straight = premultiplied * SIMD4(colourScale, colourScale, colourScale, 1)
            // Per-lane scalar code: the generic SIMD clamping and integer-from-float
            // conversions are not inlined and cost several times more.
            for component in 0..<4 {
                let limited = min(max(straight[component], 0), maxValue)
                pixel[component] = Channel(truncatingIfNeeded: UInt32(limited + 0.5))
            }
        }
    }

    /// The premultiplied form of a straight colour given in channel units.
    static func premultiplied(_ straight: SIMD4<Float>, maxValue: Float) -> SIMD4<Float> {
        let alpha = straight.w / maxValue
        return straight * SIMD4(alpha, alpha, alpha, 1)
    }
}
