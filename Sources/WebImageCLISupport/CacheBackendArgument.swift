import WebImageCore

/// The disk tier's backend named on the command line (`webimage cache --backend`, `webimage get
/// --cache-backend`) and its options as `key=value` strings.
package enum CacheBackendArgument {
    /// The bundled disk cache plugins.
    package static let names = ["disk", "redis"]

    /// - Throws: ``CLIError`` when `name` is not one of ``names``.
    package static func check(_ name: String, flag: String) throws(CLIError) {
        guard names.contains(name) else { throw CLIError("\(flag) '\(name)' is not disk or redis") }
    }

    /// The `key=value` strings as a configuration, in order.
    /// - Throws: ``CLIError`` for a string without `=` or with an empty key.
    package static func options(_ pairs: [String], flag: String) throws(CLIError) -> CacheConfiguration {
        var configuration = CacheConfiguration()
        for pair in pairs {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw CLIError("\(flag) '\(pair)' is not key=value")
            }
            configuration.entries.append(
                (key: String(pair[..<equals]), value: String(pair[pair.index(after: equals)...])))
        }
        return configuration
    }
}
