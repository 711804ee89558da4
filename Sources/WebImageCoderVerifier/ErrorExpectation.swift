import WebImageCore

/// What the verifier accepts as an error from a coder, and how it names one: the Swift kind
/// beside the plugin ABI's status, `.corruptData (WEBIMAGE_STATUS_CORRUPT_DATA)`, so a C
/// author reads the code they returned.
enum ErrorExpectation {
    /// Why `error` breaks the contract, or nil when it is an ``ImageCodingError`` of one of
    /// the `allowed` kinds.
    static func problem(with error: any Error, allowed: Set<ImageCodingError.Kind>) -> String? {
        guard let codingError = error as? ImageCodingError else {
            return "threw \(type(of: error)) (\(error)), not an ImageCodingError"
        }
        guard allowed.contains(codingError.kind) else {
            let expected = allowed.map(name(of:)).sorted().joined(separator: ", ")
            return "threw \(name(of: codingError.kind)): \(codingError.message); expected one of \(expected)"
        }
        return nil
    }

    /// How a failed operation on a valid file is described.
    static func unexpected(_ error: any Error) -> String {
        if let codingError = error as? ImageCodingError {
            return "threw \(name(of: codingError.kind)): \(codingError.message)"
        }
        return "threw \(type(of: error)) (\(error)), not an ImageCodingError"
    }

    /// `.corruptData (WEBIMAGE_STATUS_CORRUPT_DATA)`; the host's own isolation kinds, which no
    /// plugin returns, have no status: `.pluginCrashed`.
    static func name(of kind: ImageCodingError.Kind) -> String {
        switch kind {
        case .pluginCrashed, .pluginDisabled, .pluginUnavailable: return ".\(kind)"
        default: return ".\(kind) (WEBIMAGE_STATUS_\(screamingSnakeCase("\(kind)")))"
        }
    }

    /// `corruptData` as `CORRUPT_DATA`: the status names are the kinds' names in C's spelling.
    private static func screamingSnakeCase(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase, !result.isEmpty { result.append("_") }
            result.append(contentsOf: character.uppercased())
        }
        return result
    }
}
