/// One box filter along an axis, with a fractional radius: the pixels within `radius`
/// count fully and the two just beyond count by `fraction`, so its variance can match
/// any target and three passes approximate a Gaussian closely.
struct BoxBlurPass {
    /// Pixels on each side that count fully.
    let radius: Int
    /// Weight of the pixel just beyond `radius` on each side, 0 ..< 1.
    let fraction: Float
    /// 1 / (2 · radius + 1 + 2 · fraction).
    let normalization: Float

    /// The pass whose variance is `variance` (pixels²).
    ///
    /// With integer radius r and edge weight f, the variance is
    /// (r(r+1)(2r+1)/3 + 2f(r+1)²) / (2r+1+2f); r is the largest radius whose plain box
    /// stays within the target, and f solves the equation for the rest.
    init(variance: Double) {
        var radius = 0
        while Double((radius + 1) * (radius + 2)) / 3 <= variance { radius += 1 }
        let r = Double(radius)
        let fraction = (2 * r + 1) * (variance - r * (r + 1) / 3) / (2 * ((r + 1) * (r + 1) - variance))
        self.radius = radius
        self.fraction = Float(fraction)
        self.normalization = Float(1 / (2 * r + 1 + 2 * fraction))
    }

    /// Filters one line of `length` contiguous pixels from `source` into `destination`,
    /// repeating the edge pixels: the same arithmetic as ``apply(_:to:length:lanes:sums:)``
    /// with one lane, the running sum kept in registers.
    func apply(_ source: UnsafePointer<SIMD4<Float>>, to destination: UnsafeMutablePointer<SIMD4<Float>>, length: Int) {
        let last = length - 1
        var sum = SIMD4<Float>.zero
        for offset in -radius...radius { sum += source[min(max(offset, 0), last)] }
        let fraction = fraction
        let normalization = normalization
        for index in 0..<length {
            let before = source[min(max(index - radius - 1, 0), last)]
            let leaving = source[min(max(index - radius, 0), last)]
            let entering = source[min(index + radius + 1, last)]
            destination[index] = (sum + (before + entering) * fraction) * normalization
            sum = sum + entering - leaving
        }
    }

    /// Filters `lanes` interleaved lines of `length` pixels (pixel `i` of lane `l` at
    /// `i * lanes + l`) from `source` into `destination`, repeating the edge pixels.
    /// `sums` is scratch space for `lanes` pixels.
    func apply(
        _ source: UnsafePointer<SIMD4<Float>>, to destination: UnsafeMutablePointer<SIMD4<Float>>,
        length: Int, lanes: Int, sums: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let last = length - 1
        for lane in 0..<lanes {
            var sum = SIMD4<Float>.zero
            for offset in -radius...radius { sum += source[min(max(offset, 0), last) * lanes + lane] }
            sums[lane] = sum
        }
        let fraction = fraction
        let normalization = normalization
        for index in 0..<length {
            let before = source + min(max(index - radius - 1, 0), last) * lanes
            let leaving = source + min(max(index - radius, 0), last) * lanes
            let entering = source + min(index + radius + 1, last) * lanes
            let result = destination + index * lanes
            for lane in 0..<lanes {
                let sum = sums[lane]
                result[lane] = (sum + (before[lane] + entering[lane]) * fraction) * normalization
                sums[lane] = sum + entering[lane] - leaving[lane]
            }
        }
    }
}
