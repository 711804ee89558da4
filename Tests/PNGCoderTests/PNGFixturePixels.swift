/// The pixels the PNG fixtures hold, computed the way `Tests/Fixtures/png/make-fixtures.py`
/// wrote them, and expanded the way libpng expands them to RGBA.
enum PNGFixturePixels {
    static let width = 13
    static let height = 7

    /// Sample `channel` of pixel (`x`, `y`) at `depth` bits.
    static func sample(_ x: Int, _ y: Int, _ channel: Int, depth: Int) -> Int {
        (x * 31 + y * 17 + channel * 67) % (1 << depth)
    }

    /// A `depth`-bit sample as 8 bits: low depths scaled up, 16 bits scaled down with rounding.
    static func to8(_ value: Int, depth: Int) -> Int {
        switch depth {
        case 16: return (value * 255 + 32767) / 65535
        case 8: return value
        default: return value * 255 / ((1 << depth) - 1)
        }
    }

    /// Color type and bit depth of a fixture named like `rgba16` or `palette4-adam7`.
    struct Kind {
        var colorType: String
        var depth: Int
        var hasTRNS: Bool

        init(_ name: String) {
            let base = name.split(separator: "-").first.map(String.init) ?? name
            let letters = base.prefix { $0.isLetter }
            colorType = String(letters)
            depth = Int(base.dropFirst(letters.count)) ?? 8
            hasTRNS = name.contains("trns")
        }
    }

    /// Expected RGBA of pixel (`x`, `y`) of fixture `name`, at 8 bits or (`sixteen`) 16 bits per channel.
    static func rgba(_ name: String, x: Int, y: Int, sixteen: Bool = false) -> [Int] {
        let kind = Kind(name)
        let depth = kind.depth
        func value(_ channel: Int) -> Int {
            let raw = sample(x, y, channel, depth: depth)
            return sixteen ? raw : to8(raw, depth: depth)
        }
        let opaque = sixteen ? 65535 : 255
        switch kind.colorType {
        case "gray":
            let transparent = kind.hasTRNS && sample(x, y, 0, depth: depth) == sample(0, 0, 0, depth: depth)
            return [value(0), value(0), value(0), transparent ? 0 : opaque]
        case "graya":
            return [value(0), value(0), value(0), value(1)]
        case "rgb":
            let transparent =
                kind.hasTRNS && (0..<3).allSatisfy { sample(x, y, $0, depth: 8) == sample(0, 0, $0, depth: 8) }
            return [value(0), value(1), value(2), transparent ? 0 : opaque]
        case "rgba":
            return [value(0), value(1), value(2), value(3)]
        default:
            let index = sample(x, y, 0, depth: depth)
            return [index, 255 - index, (index * 7) % 256, index < 5 ? (index * 50) % 256 : 255]
        }
    }

    /// Every fixture with valid pixels.
    static let names = [
        "gray1", "gray2", "gray4", "gray8", "gray16", "gray8-trns", "gray16-adam7", "graya8", "graya16", "rgb8",
        "rgb16", "rgb8-trns", "rgba8", "rgba16", "rgba8-adam7", "palette1", "palette2", "palette4", "palette8",
        "palette8-adam7",
    ]
}
