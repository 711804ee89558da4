/// A built-in or plugin transformer written as `NAME[:ARG[:ARG...]]`, the form that
/// `webimage --transform` and the image server's URL options share:
///
/// - `resize:WxH[:fill|fit|fill-crop]` (default `fill-crop`)
/// - `crop:X,Y,W,H`
/// - `round-corner:R[:BORDER[:[#]RRGGBB[AA]]]` (all four corners; border colour default opaque black)
/// - `flip:h|v|hv`
/// - `rotate:DEGREES[:fit]` (counter-clockwise; `fit` grows the canvas)
/// - `tint:[#]RRGGBB[AA]`
/// - `blur:RADIUS` (Gaussian standard deviation in pixels)
///
/// Colours may leave out the `#`, which a URL path cannot carry. Any other name is a
/// transformer from a plugin, its one argument `k=v,...` reaching the plugin as key/value
/// strings, in order (for example `sepia:percent=80`).
public struct TransformerSpec: Sendable, Equatable {
    /// The names of the built-in transformers, in the order help texts list them.
    public static let builtInNames = ["resize", "crop", "round-corner", "flip", "rotate", "tint", "blur"]

    /// The transformer's name, such as `tint` or `sepia`.
    public let name: String
    /// The `:`-separated arguments after the name, possibly empty strings.
    public let arguments: [String]

    public init(name: String, arguments: [String]) {
        self.name = name
        self.arguments = arguments
    }

    /// The spec `text` spells, split at every `:`.
    public init(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        self.init(name: parts[0], arguments: Array(parts.dropFirst()))
    }

    /// Whether ``name`` is a built-in transformer's.
    public var isBuiltIn: Bool { Self.builtInNames.contains(name) }

    /// The built-in transformer the spec describes.
    /// - Throws: ``TransformerSpecError`` `.malformed` when the arguments do not have the
    ///   transformer's shape, `.invalid` when the transformer refuses their values, and
    ///   `.notBuiltIn` for a name that is not a built-in transformer's.
    public func makeBuiltIn() throws(TransformerSpecError) -> any ImageTransformer {
        switch name {
        case "resize": return try resize()
        case "crop": return try crop()
        case "round-corner": return try roundCorner()
        case "flip": return try flip()
        case "rotate": return try rotate()
        case "tint": return TintTransformer(color: try color(try single("[#]RRGGBB[AA]")))
        case "blur":
            let radius = try number(try single("RADIUS"), shape: "RADIUS")
            return try invalidIfThrows { () throws(ImageTransformError) in try BlurTransformer(radius: radius) }
        default: throw .notBuiltIn
        }
    }

    /// The `k=v,...` argument of a plugin transformer's spec, in order; none without arguments.
    /// - Throws: ``TransformerSpecError`` `.malformed` for more than one argument or a pair
    ///   without `=` or key.
    public func pluginParameters() throws(TransformerSpecError) -> [(key: String, value: String)] {
        guard let list = arguments.first else { return [] }
        guard arguments.count == 1 else { throw .malformed(expected: "k=v,...") }
        var parameters: [(key: String, value: String)] = []
        for pair in list.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else { throw .malformed(expected: "k=v,...") }
            parameters.append((key: String(parts[0]), value: String(parts[1])))
        }
        return parameters
    }

    private func resize() throws(TransformerSpecError) -> ResizingTransformer {
        let shape = "WxH[:fill|fit|fill-crop]"
        guard (1...2).contains(arguments.count) else { throw .malformed(expected: shape) }
        let size = arguments[0].lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let width = Int(size[0]), let height = Int(size[1]) else {
            throw .malformed(expected: shape)
        }
        var mode = ResizingTransformer.ScaleMode.aspectFill
        if arguments.count == 2 {
            guard let chosen = ResizingTransformer.ScaleMode(rawValue: arguments[1]) else {
                throw .malformed(expected: shape)
            }
            mode = chosen
        }
        return try invalidIfThrows { () throws(ImageTransformError) in
            try ResizingTransformer(width: width, height: height, scaleMode: mode)
        }
    }

    private func crop() throws(TransformerSpecError) -> CroppingTransformer {
        let values = try single("X,Y,W,H").split(separator: ",", omittingEmptySubsequences: false)
        let numbers = values.compactMap { Int($0) }
        guard values.count == 4, numbers.count == 4 else { throw .malformed(expected: "X,Y,W,H") }
        return try invalidIfThrows { () throws(ImageTransformError) in
            try CroppingTransformer(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        }
    }

    private func roundCorner() throws(TransformerSpecError) -> RoundCornerTransformer {
        let shape = "R[:BORDER[:[#]RRGGBB[AA]]]"
        guard (1...3).contains(arguments.count) else { throw .malformed(expected: shape) }
        let radius = try number(arguments[0], shape: shape)
        let border = arguments.count >= 2 ? try number(arguments[1], shape: shape) : 0
        let borderColor = arguments.count == 3 ? try color(arguments[2]) : .black
        return try invalidIfThrows { () throws(ImageTransformError) in
            try RoundCornerTransformer(radius: radius, borderWidth: border, borderColor: borderColor)
        }
    }

    private func flip() throws(TransformerSpecError) -> FlippingTransformer {
        switch try single("h|v|hv") {
        case "h": return FlippingTransformer(horizontal: true, vertical: false)
        case "v": return FlippingTransformer(horizontal: false, vertical: true)
        case "hv", "vh": return FlippingTransformer(horizontal: true, vertical: true)
        default: throw .malformed(expected: "h|v|hv")
        }
    }

    private func rotate() throws(TransformerSpecError) -> RotationTransformer {
        let shape = "DEGREES[:fit]"
        guard (1...2).contains(arguments.count), arguments.count == 1 || arguments[1] == "fit" else {
            throw .malformed(expected: shape)
        }
        let degrees = try number(arguments[0], shape: shape)
        return try invalidIfThrows { () throws(ImageTransformError) in
            try RotationTransformer(degrees: degrees, fitsSize: arguments.count == 2)
        }
    }

    /// The one argument of a spec that takes exactly one.
    private func single(_ shape: String) throws(TransformerSpecError) -> String {
        guard arguments.count == 1, !arguments[0].isEmpty else { throw .malformed(expected: shape) }
        return arguments[0]
    }

    /// A decimal number such as `10`, `-2.5`.
    private func number(_ text: String, shape: String) throws(TransformerSpecError) -> Double {
        guard let value = Double(text), value.isFinite else { throw .malformed(expected: shape) }
        return value
    }

    /// `#RRGGBB[AA]`, the `#` optional.
    private func color(_ text: String) throws(TransformerSpecError) -> RGBAColor {
        try invalidIfThrows { () throws(ImageTransformError) in
            try RGBAColor(hex: text.hasPrefix("#") ? text : "#" + text)
        }
    }

    private func invalidIfThrows<T>(_ make: () throws(ImageTransformError) -> T) throws(TransformerSpecError) -> T {
        do throws(ImageTransformError) {
            return try make()
        } catch {
            throw .invalid(error)
        }
    }
}

/// Why a ``TransformerSpec`` makes no transformer.
public enum TransformerSpecError: Error, Sendable, Equatable {
    /// The arguments do not have the transformer's shape, such as `WxH[:fill|fit|fill-crop]`.
    case malformed(expected: String)
    /// The transformer refuses the arguments' values (its message says why).
    case invalid(ImageTransformError)
    /// The name is not a built-in transformer's.
    case notBuiltIn
}

extension TransformerSpecError {
    /// One line saying what is wrong with a spec of the transformer `name`:
    /// `expected NAME:SHAPE`, the transformer's own message, or that it is not built in.
    public func reason(name: String) -> String {
        switch self {
        case .malformed(let expected): "expected \(name):\(expected)"
        case .invalid(let error): error.message
        case .notBuiltIn: "'\(name)' is not a built-in transformer"
        }
    }
}
