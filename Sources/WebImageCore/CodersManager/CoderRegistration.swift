/// One coder known to a ``CodersManager``: in-process, or a plugin loaded on first use.
struct CoderRegistration: Sendable {
    /// The plugin or coder name, for messages.
    let name: String
    /// Higher wins; on a tie the later registration wins.
    let priority: Int
    /// Registration order, 0 first.
    let order: Int
    /// Format names with their file extensions, known without loading anything.
    let formats: [(name: String, extensions: [String])]
    /// Magic byte patterns known without loading anything; empty = unknown, ask the coder.
    let signatures: [MagicSignature]
    /// The coder; for plugins this loads the library the first time.
    let resolve: @Sendable () throws -> any ImageCoder

    func matchesSignature(_ bytes: UnsafeRawBufferPointer) -> Bool {
        signatures.contains { $0.matches(bytes) }
    }

    /// True when this entry handles `format` (a name or a file extension, any case).
    func handles(format: String) -> Bool {
        let wanted = format.lowercased()
        return formats.contains { $0.name == wanted || $0.extensions.contains(wanted) }
    }
}
