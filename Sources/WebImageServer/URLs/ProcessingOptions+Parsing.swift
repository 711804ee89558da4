import WebImageCore

/// imgproxy's options that this server takes.
enum ImgproxyOption: String {
    case resize, size, width, height, enlarge, extend, quality, format, blur, rotate, background, preset, cachebuster

    /// Each option by every spelling: its name and its aliases.
    static let byName: [String: ImgproxyOption] = [
        "resize": .resize, "rs": .resize, "size": .size, "s": .size, "width": .width, "w": .width,
        "height": .height, "h": .height, "enlarge": .enlarge, "el": .enlarge, "extend": .extend, "ex": .extend,
        "quality": .quality, "q": .quality,
        "format": .format, "f": .format, "ext": .format, "blur": .blur, "bl": .blur, "rotate": .rotate,
        "rot": .rotate, "background": .background, "bg": .background, "preset": .preset, "pr": .preset,
        "cachebuster": .cachebuster, "cb": .cachebuster,
    ]
}

extension ProcessingOptions {
    /// Applies the option `text` (`name:arg:...`, not a preset), as a later option does: it
    /// overrides what it sets, a transformer is appended.
    /// - Parameter pluginTransformers: the transformer names plugins make.
    /// - Throws: ``ProcessingURLError`` `.unknownOption` or `.invalidArgument`.
    mutating func apply(_ text: String, pluginTransformers: Set<String>) throws(ProcessingURLError) {
        let spec = TransformerSpec(text)
        let arguments = spec.arguments
        let invalid = { (reason: String) in ProcessingURLError(.invalidArgument, "invalid option '\(text)': \(reason)")
        }
        switch ImgproxyOption.byName[spec.name] {
        case .resize:
            guard arguments.count <= 5 else { throw invalid("expected resize:TYPE:WIDTH:HEIGHT:ENLARGE:EXTEND") }
            if let typeText = arguments.first, !typeText.isEmpty {
                guard let type = ResizeOptions.ResizingType(rawValue: typeText) else {
                    throw invalid("the resizing type is one of fit, fill, fill-down, force, auto")
                }
                resize.type = type
            }
            try setSize(Array(arguments.dropFirst()), invalid)
        case .size:
            guard arguments.count <= 4 else { throw invalid("expected size:WIDTH:HEIGHT:ENLARGE:EXTEND") }
            try setSize(arguments, invalid)
        case .width: resize.width = try Self.dimension(try Self.single(arguments, "WIDTH", invalid), invalid)
        case .height: resize.height = try Self.dimension(try Self.single(arguments, "HEIGHT", invalid), invalid)
        case .enlarge: resize.enlarges = try Self.flag(try Self.single(arguments, "1|0", invalid), invalid)
        case .extend:
            guard (1...2).contains(arguments.count), !arguments[0].isEmpty else {
                throw invalid("expected extend:1|0[:ce]")
            }
            resize.extends = try Self.flag(arguments[0], invalid)
            if arguments.count == 2 && !arguments[1].isEmpty && arguments[1] != "ce" {
                guard Self.gravities.contains(arguments[1]) else { throw invalid("'\(arguments[1])' is not a gravity") }
                throw ProcessingURLError(
                    .unsupported,
                    "invalid option '\(text)': extending with a gravity other than ce is not supported yet")
            }
        case .quality:
            guard let value = Int(try Self.single(arguments, "QUALITY", invalid)), (0...100).contains(value) else {
                throw invalid("the quality is a whole number from 0 to 100")
            }
            quality = value == 0 ? nil : value
        case .format: format = try Self.fileExtension(try Self.single(arguments, "EXTENSION", invalid), invalid)
        case .blur:
            guard let sigma = Double(try Self.single(arguments, "SIGMA", invalid)), sigma.isFinite, sigma >= 0 else {
                throw invalid("the sigma is a number of pixels, at least 0")
            }
            blurSigma = sigma == 0 ? nil : sigma
        case .rotate:
            guard let angle = Int(try Self.single(arguments, "ANGLE", invalid)), angle.isMultiple(of: 90) else {
                throw invalid("the angle is a multiple of 90")
            }
            rotation = (angle % 360 + 360) % 360
        case .background: background = try Self.color(arguments, invalid)
        case .cachebuster:
            cacheBuster = try Self.single(arguments, "STRING", invalid)
        case .preset:
            throw ProcessingURLError(.unknownPreset, "invalid option '\(text)': presets cannot name presets")
        default:
            if spec.isBuiltIn {
                do throws(TransformerSpecError) {
                    _ = try spec.makeBuiltIn()
                } catch {
                    throw invalid(error.reason(name: spec.name))
                }
            } else if pluginTransformers.contains(spec.name) {
                do throws(TransformerSpecError) {
                    _ = try spec.pluginParameters()
                } catch {
                    throw invalid(error.reason(name: spec.name))
                }
            } else {
                throw ProcessingURLError(.unknownOption, "unknown option '\(spec.name)' in '\(text)'")
            }
            transformers.append(spec)
        }
    }

    /// Sets `WIDTH:HEIGHT:ENLARGE:EXTEND`, each optional; an empty argument leaves its field.
    private mutating func setSize(
        _ arguments: [String], _ invalid: (String) -> ProcessingURLError
    ) throws(ProcessingURLError) {
        for (index, argument) in arguments.enumerated() where !argument.isEmpty {
            switch index {
            case 0: resize.width = try Self.dimension(argument, invalid)
            case 1: resize.height = try Self.dimension(argument, invalid)
            case 2: resize.enlarges = try Self.flag(argument, invalid)
            default: resize.extends = try Self.flag(argument, invalid)
            }
        }
    }

    /// imgproxy's gravities that `extend` takes; only `ce`, the centre, is done.
    private static let gravities: Set = ["ce", "no", "so", "ea", "we", "noea", "nowe", "soea", "sowe"]

    /// The one non-empty argument of an option that takes exactly one.
    private static func single(
        _ arguments: [String], _ shape: String, _ invalid: (String) -> ProcessingURLError
    ) throws(ProcessingURLError) -> String {
        guard arguments.count == 1, !arguments[0].isEmpty else { throw invalid("expected one argument, \(shape)") }
        return arguments[0]
    }

    /// A width or height: a whole number of pixels, at least 0.
    private static func dimension(
        _ text: String, _ invalid: (String) -> ProcessingURLError
    ) throws(ProcessingURLError) -> Int {
        guard let value = Int(text), value >= 0 else {
            throw invalid("'\(text)' is not a size in pixels (a whole number, at least 0)")
        }
        return value
    }

    /// imgproxy's booleans: `1`, `t`, `true` and `0`, `f`, `false`.
    private static func flag(_ text: String, _ invalid: (String) -> ProcessingURLError) throws(ProcessingURLError)
        -> Bool
    {
        switch text {
        case "1", "t", "true": return true
        case "0", "f", "false": return false
        default: throw invalid("'\(text)' is not a boolean (1, t, true, 0, f, false)")
        }
    }

    /// An output format's extension: lowercase letters and digits.
    static func fileExtension(
        _ text: String, _ invalid: (String) -> ProcessingURLError
    ) throws(ProcessingURLError) -> String {
        let lowered = text.lowercased()
        guard !lowered.isEmpty, lowered.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw invalid("'\(text)' is not a file extension")
        }
        return lowered
    }

    /// `background`'s colour: none (no argument or one empty one), `RRGGBB`, or `R:G:B` (0...255).
    private static func color(
        _ arguments: [String], _ invalid: (String) -> ProcessingURLError
    ) throws(ProcessingURLError) -> RGBAColor? {
        switch arguments.count {
        case 0: return nil
        case 1 where arguments[0].isEmpty: return nil
        case 1:
            guard arguments[0].count == 6, let color = try? RGBAColor(hex: "#" + arguments[0]) else {
                throw invalid("expected a colour RRGGBB in hexadecimal or R:G:B")
            }
            return color
        case 3:
            let channels = arguments.compactMap { UInt8($0) }
            guard channels.count == 3 else { throw invalid("each of R:G:B is a whole number from 0 to 255") }
            return RGBAColor(red: channels[0], green: channels[1], blue: channels[2])
        default: throw invalid("expected a colour RRGGBB in hexadecimal or R:G:B")
        }
    }
}
