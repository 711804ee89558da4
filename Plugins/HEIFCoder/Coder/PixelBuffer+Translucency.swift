import WebImageCore

extension PixelBuffer {
    /// True when some pixel's alpha is below the format's maximum.
    var hasTranslucentPixel: Bool {
        for y in 0..<height {
            let row = self.row(y)
            switch format {
            case .rgba8:
                let samples = row.assumingMemoryBound(to: UInt8.self)
                for x in 0..<width where samples[x * 4 + 3] != UInt8.max { return true }
            case .rgba16:
                let samples = row.assumingMemoryBound(to: UInt16.self)
                for x in 0..<width where samples[x * 4 + 3] != UInt16.max { return true }
            }
        }
        return false
    }
}
