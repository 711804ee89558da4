import WebImageCLISupport
import WebImageCore

/// Parsing of `--transform SPEC`, one built-in transformer per spec:
///
/// - `resize:WxH[:fill|fit|fill-crop]` (default `fill-crop`)
/// - `crop:X,Y,W,H`
/// - `round-corner:R[:BORDER[:#RRGGBB[AA]]]` (all four corners; border colour default opaque black)
/// - `flip:h|v|hv`
/// - `rotate:DEGREES[:fit]` (counter-clockwise; `fit` grows the canvas)
/// - `tint:#RRGGBB[AA]`
/// - `blur:RADIUS` (Gaussian standard deviation in pixels)
///
/// Any other `NAME[:k=v,...]` names a transformer from a plugin in the search path (for
/// example `sepia:percent=80` from the `effects` example plugin); the parameters reach the
/// plugin as key/value strings, in order.
enum TransformArgument {
    /// The names of the built-in transformers, in the order the help lists them.
    static let builtInNames = ["resize", "crop", "round-corner", "flip", "rotate", "tint", "blur"]

    /// The transformer `text` describes.
    /// - Throws: ``CLIError`` `invalid --transform '…': …` for a malformed spec or bad
    ///   parameters, and `no transformer named '…'` for an unknown name.
    static func parse(_ text: String, host: PluginHost) throws -> any ImageTransformer {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let name = parts[0]
        let arguments = Array(parts.dropFirst())
        do {
            switch name {
            case "resize": return try resize(arguments)
            case "crop": return try crop(arguments)
            case "round-corner": return try roundCorner(arguments)
            case "flip": return try flip(arguments)
            case "rotate": return try rotate(arguments)
            case "tint": return TintTransformer(color: try RGBAColor(hex: try single(arguments, "#RRGGBB[AA]")))
            case "blur": return try BlurTransformer(radius: try number(try single(arguments, "RADIUS")))
            default:
                let pluginNames = host.transformerNames
                guard pluginNames.contains(name) else {
                    let fromPlugins = pluginNames.isEmpty ? "" : "; plugins make " + pluginNames.joined(separator: ", ")
                    throw CLIError(
                        "no transformer named '\(name)' in --transform '\(text)'; the built-in transformers are "
                            + builtInNames.joined(separator: ", ") + fromPlugins)
                }
                return try host.makeTransformer(named: name, parameters: try pluginParameters(arguments))
            }
        } catch let error as ImageTransformError {
            throw CLIError("invalid --transform '\(text)': \(error.message)")
        } catch let error as SpecError {
            throw CLIError("invalid --transform '\(text)': expected \(name):\(error.expected)")
        }
    }

    /// A pipeline of the transformers `texts` describe, in order.
    /// - Throws: ``CLIError`` from the first spec that does not parse.
    static func pipeline(_ texts: [String], host: PluginHost) throws -> TransformerPipeline {
        TransformerPipeline(try texts.map { try parse($0, host: host) })
    }

    /// The `k=v,...` of a plugin transformer's spec, in order; none when it has no arguments.
    private static func pluginParameters(_ arguments: [String]) throws -> [(key: String, value: String)] {
        guard let list = arguments.first else { return [] }
        guard arguments.count == 1 else { throw SpecError(expected: "k=v,...") }
        return try list.split(separator: ",").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else { throw SpecError(expected: "k=v,...") }
            return (key: String(parts[0]), value: String(parts[1]))
        }
    }

    /// A spec whose arguments do not have the expected shape.
    private struct SpecError: Error {
        /// The shape of the arguments, such as `WxH[:fill|fit|fill-crop]`.
        let expected: String
    }

    private static func resize(_ arguments: [String]) throws -> ResizingTransformer {
        let shape = "WxH[:fill|fit|fill-crop]"
        guard (1...2).contains(arguments.count) else { throw SpecError(expected: shape) }
        let size = arguments[0].lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let width = Int(size[0]), let height = Int(size[1]) else {
            throw SpecError(expected: shape)
        }
        var mode = ResizingTransformer.ScaleMode.aspectFill
        if arguments.count == 2 {
            guard let chosen = ResizingTransformer.ScaleMode(rawValue: arguments[1]) else {
                throw SpecError(expected: shape)
            }
            mode = chosen
        }
        return try ResizingTransformer(width: width, height: height, scaleMode: mode)
    }

    private static func crop(_ arguments: [String]) throws -> CroppingTransformer {
        let values = try single(arguments, "X,Y,W,H").split(separator: ",", omittingEmptySubsequences: false)
        let numbers = values.compactMap { Int($0) }
        guard values.count == 4, numbers.count == 4 else { throw SpecError(expected: "X,Y,W,H") }
        return try CroppingTransformer(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    private static func roundCorner(_ arguments: [String]) throws -> RoundCornerTransformer {
        let shape = "R[:BORDER[:#RRGGBB[AA]]]"
        guard (1...3).contains(arguments.count) else { throw SpecError(expected: shape) }
        let radius = try number(arguments[0], shape: shape)
        let border = arguments.count >= 2 ? try number(arguments[1], shape: shape) : 0
        let color = arguments.count == 3 ? try RGBAColor(hex: arguments[2]) : .black
        return try RoundCornerTransformer(radius: radius, borderWidth: border, borderColor: color)
    }

    private static func flip(_ arguments: [String]) throws -> FlippingTransformer {
        switch try single(arguments, "h|v|hv") {
        case "h": return FlippingTransformer(horizontal: true, vertical: false)
        case "v": return FlippingTransformer(horizontal: false, vertical: true)
        case "hv", "vh": return FlippingTransformer(horizontal: true, vertical: true)
        default: throw SpecError(expected: "h|v|hv")
        }
    }

    private static func rotate(_ arguments: [String]) throws -> RotationTransformer {
        let shape = "DEGREES[:fit]"
        guard (1...2).contains(arguments.count), arguments.count == 1 || arguments[1] == "fit" else {
            throw SpecError(expected: shape)
        }
        return try RotationTransformer(degrees: try number(arguments[0], shape: shape), fitsSize: arguments.count == 2)
    }

    /// The one argument of a spec that takes exactly one.
    private static func single(_ arguments: [String], _ shape: String) throws -> String {
        guard arguments.count == 1, !arguments[0].isEmpty else { throw SpecError(expected: shape) }
        return arguments[0]
    }

    /// A decimal number such as `10`, `-2.5`.
    private static func number(_ text: String, shape: String = "RADIUS") throws -> Double {
        guard let value = Double(text), value.isFinite else { throw SpecError(expected: shape) }
        return value
    }
}
