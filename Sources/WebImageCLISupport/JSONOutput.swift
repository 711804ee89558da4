import FoundationEssentials

/// Prints reports as JSON on standard output.
public enum JSONOutput {
    /// Prints `value` as pretty-printed JSON with sorted keys, followed by a newline.
    /// - Throws: ``CLIError`` when the value cannot be encoded (for example a non-finite number).
    public static func print(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw CLIError("cannot encode the JSON output: \(error)")
        }
        Swift.print(String(decoding: data, as: UTF8.self))
    }
}
