import WebImageCore

extension ImageOrientation {
    /// A short name for people: `up`, `right`, `left-mirrored`, ...
    var displayName: String {
        switch self {
        case .up: "up"
        case .upMirrored: "up-mirrored"
        case .down: "down"
        case .downMirrored: "down-mirrored"
        case .leftMirrored: "left-mirrored"
        case .right: "right"
        case .rightMirrored: "right-mirrored"
        case .left: "left"
        }
    }
}

extension ImageInfo.Traits {
    /// Names of the traits, in bit order.
    static let displayNames: [(String, ImageInfo.Traits)] = [
        ("alpha", .hasAlpha), ("animated", .animated), ("progressive", .progressive), ("interlaced", .interlaced),
        ("partial", .partial), ("grayscale", .grayscale), ("indexed", .indexed), ("cmyk", .cmyk),
    ]

    /// The names of the set traits, in bit order.
    var names: [String] {
        Self.displayNames.filter { contains($0.1) }.map(\.0)
    }
}

extension ImageInfo {
    /// The pixel format a decode gives when asked for the deepest output: `rgba16` for
    /// sources with more than 8 bits per component, else `rgba8`.
    var decodedPixelFormat: PixelFormat {
        bitsPerComponent > 8 ? .rgba16 : .rgba8
    }
}

extension PixelFormat {
    /// The lowercase name used in output: `rgba8` or `rgba16`.
    var displayName: String {
        switch self {
        case .rgba8: "rgba8"
        case .rgba16: "rgba16"
        }
    }
}
