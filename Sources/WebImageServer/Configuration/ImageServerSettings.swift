import FoundationEssentials

/// Sets ``ImageServerConfiguration``'s fields by their setting names, from the three places
/// `webimage serve` reads: a JSON file, `WEBIMAGE_SERVE_*` variables and flags, applied in
/// that order so that flags win. Each setting's value is a list of strings (one for most; a
/// repeated flag, a JSON array or a comma-separated variable for `key`, `salt`,
/// `allow-source` and `preset`).
public enum ImageServerSettings {
    /// Every setting name, in the order `--help` lists them.
    public static let names = [
        "listen", "key", "salt", "allow-unsigned", "allow-source", "allow-private-sources", "cache-dir", "redis-url",
        "redis-originals", "redis-timeout", "max-concurrent", "max-queue", "request-timeout", "max-source-bytes",
        "source-timeout",
        "max-pixels",
        "max-bytes", "max-frames", "max-animation-bytes", "decode-timeout", "cache-control-max-age", "presets-only",
        "preset", "enable-avif", "result-memory-bytes", "drain-timeout", "source-max-age",
    ]

    /// The prefix of the environment variables: `WEBIMAGE_SERVE_` + the name upper-cased, `-` as `_`.
    public static let environmentPrefix = "WEBIMAGE_SERVE_"

    /// The variable of setting `name`.
    public static func environmentVariable(of name: String) -> String {
        environmentPrefix + name.uppercased().replacing("-", with: "_")
    }

    /// `configuration` with the settings of `environment` (`WEBIMAGE_SERVE_*`) applied.
    /// - Throws: ``ImageServerConfigurationError`` naming the variable with a bad value.
    public static func applyingEnvironment(
        _ environment: [String: String], to configuration: ImageServerConfiguration
    ) throws(ImageServerConfigurationError) -> ImageServerConfiguration {
        var configuration = configuration
        for name in names {
            let variable = environmentVariable(of: name)
            guard let text = environment[variable] else { continue }
            let values = isList(name) ? text.split(separator: ",").map(String.init) : [text]
            try apply(name, values, to: &configuration, from: variable)
        }
        return configuration
    }

    /// `configuration` with the settings of the JSON object in `data` applied: keys are
    /// setting names; values strings, numbers, booleans, arrays of them (list settings), or
    /// for `preset` an object of name to options.
    /// - Throws: ``ImageServerConfigurationError`` for bad JSON, an unknown key or a bad value.
    public static func applyingJSON(
        _ data: Data, to configuration: ImageServerConfiguration, file: String
    ) throws(ImageServerConfigurationError) -> ImageServerConfiguration {
        let object: [String: SettingValue]
        do {
            object = try JSONDecoder().decode([String: SettingValue].self, from: data)
        } catch {
            throw ImageServerConfigurationError("\(file): not a JSON object of settings (\(error))")
        }
        var configuration = configuration
        for name in object.keys.sorted() {
            guard names.contains(name) else {
                throw ImageServerConfigurationError("\(file): unknown setting '\(name)'")
            }
            try apply(name, try strings(object[name]!, name: name, file: file), to: &configuration, from: file)
        }
        return configuration
    }

    /// Sets `name` to `values` in `configuration`; `origin` names where they came from in errors.
    /// - Throws: ``ImageServerConfigurationError`` for an unknown name or a bad value.
    public static func apply(
        _ name: String, _ values: [String], to configuration: inout ImageServerConfiguration, from origin: String
    ) throws(ImageServerConfigurationError) {
        let bad = { (expected: String) in
            ImageServerConfigurationError(
                "\(origin): \(name) must be \(expected), not '\(values.joined(separator: ","))'")
        }
        let one = values.last ?? ""
        func count() throws(ImageServerConfigurationError) -> Int {
            guard let value = Int(one), value >= 0 else { throw bad("a whole number, 0 or more") }
            return value
        }
        func bytes() throws(ImageServerConfigurationError) -> UInt64 {
            guard let value = UInt64(one) else { throw bad("a number of bytes") }
            return value
        }
        func seconds(allowingZero: Bool) throws(ImageServerConfigurationError) -> Double {
            guard let value = Double(one), value.isFinite, value > 0 || (allowingZero && value == 0) else {
                throw bad(allowingZero ? "0 or more seconds" : "more than 0 seconds")
            }
            return value
        }
        func flag() throws(ImageServerConfigurationError) -> Bool {
            switch one.lowercased() {
            case "1", "true", "yes", "on", "": return true
            case "0", "false", "no", "off": return false
            default: throw bad("true or false")
            }
        }
        switch name {
        case "listen": configuration.listen = one
        case "key": configuration.keys = values
        case "salt": configuration.salts = values
        case "allow-unsigned": configuration.allowUnsigned = try flag()
        case "allow-source": configuration.allowedSources = values
        case "allow-private-sources": configuration.allowPrivateSources = try flag()
        case "cache-dir": configuration.cacheDirectory = one
        case "redis-url": configuration.redisURL = one
        case "redis-originals": configuration.redisOriginals = try flag()
        case "redis-timeout": configuration.redisTimeout = try seconds(allowingZero: false)
        case "max-concurrent":
            let value = try count()
            guard value > 0 else { throw bad("at least 1") }
            configuration.maxConcurrent = value
        case "max-queue": configuration.maxQueue = try count()
        case "request-timeout": configuration.requestTimeout = try seconds(allowingZero: false)
        case "max-source-bytes": configuration.maxSourceBytes = try bytes()
        case "source-timeout": configuration.sourceTimeout = try seconds(allowingZero: false)
        case "max-pixels": configuration.maxPixels = try count()
        case "max-bytes": configuration.maxBytes = try count()
        case "max-frames": configuration.maxFrames = try count()
        case "max-animation-bytes": configuration.maxAnimationBytes = try count()
        case "decode-timeout": configuration.decodeTimeout = try seconds(allowingZero: true)
        case "cache-control-max-age": configuration.cacheControlMaxAge = try count()
        case "presets-only": configuration.presetsOnly = try flag()
        case "preset":
            for value in values {
                guard let equals = value.firstIndex(of: "="), equals != value.startIndex else {
                    throw ImageServerConfigurationError("\(origin): preset must be NAME=OPTIONS, not '\(value)'")
                }
                configuration.presets[String(value[..<equals])] = String(value[value.index(after: equals)...])
            }
        case "enable-avif": configuration.enableAVIF = try flag()
        case "result-memory-bytes": configuration.resultMemoryBytes = try bytes()
        case "drain-timeout": configuration.drainTimeout = try seconds(allowingZero: true)
        case "source-max-age": configuration.sourceMaxAge = try seconds(allowingZero: true)
        default: throw ImageServerConfigurationError("\(origin): unknown setting '\(name)'")
        }
    }

    /// Whether `name` takes a list.
    static func isList(_ name: String) -> Bool {
        ["key", "salt", "allow-source", "preset"].contains(name)
    }

    /// A JSON value as the strings of a setting.
    private static func strings(_ value: SettingValue, name: String, file: String) throws(ImageServerConfigurationError)
        -> [String]
    {
        switch value {
        case .text(let text): return [text]
        case .list(let elements):
            guard isList(name) else {
                throw ImageServerConfigurationError("\(file): \(name) takes one value, not a list")
            }
            var result: [String] = []
            for element in elements { result += try strings(element, name: name, file: file) }
            return result
        case .object(let object):
            guard name == "preset" else {
                throw ImageServerConfigurationError("\(file): \(name) takes a value, not an object")
            }
            var result: [String] = []
            for key in object.keys.sorted() {
                guard case .text(let options) = object[key]! else {
                    throw ImageServerConfigurationError("\(file): preset '\(key)' must be a string of options")
                }
                result.append("\(key)=\(options)")
            }
            return result
        }
    }

    /// A value in the JSON file: a scalar as text (`true`, `8`, `"a"`), a list or an object.
    private enum SettingValue: Decodable {
        case text(String)
        case list([SettingValue])
        case object([String: SettingValue])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) {
                self = .text(flag ? "true" : "false")
            } else if let number = try? container.decode(Int64.self) {
                self = .text(String(number))
            } else if let number = try? container.decode(Double.self) {
                self = .text(String(number))
            } else if let text = try? container.decode(String.self) {
                self = .text(text)
            } else if let list = try? container.decode([SettingValue].self) {
                self = .list(list)
            } else {
                self = .object(try container.decode([String: SettingValue].self))
            }
        }
    }
}

/// A setting of `webimage serve` that cannot be used: one line naming where it came from.
public struct ImageServerConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
