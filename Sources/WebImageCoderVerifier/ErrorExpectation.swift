import WebImageCore

/// What the verifier accepts as an error from a coder.
enum ErrorExpectation {
    /// Why `error` breaks the contract, or nil when it is an ``ImageCodingError`` of one of
    /// the `allowed` kinds.
    static func problem(with error: any Error, allowed: Set<ImageCodingError.Kind>) -> String? {
        guard let codingError = error as? ImageCodingError else {
            return "threw \(type(of: error)) (\(error)), not an ImageCodingError"
        }
        guard allowed.contains(codingError.kind) else {
            let expected = allowed.map { ".\($0)" }.sorted().joined(separator: ", ")
            return "threw .\(codingError.kind) (\(codingError.message)); expected one of \(expected)"
        }
        return nil
    }

    /// How a failed operation on a valid file is described.
    static func unexpected(_ error: any Error) -> String {
        if let codingError = error as? ImageCodingError {
            return "threw .\(codingError.kind) (\(codingError.message))"
        }
        return "threw \(type(of: error)) (\(error)), not an ImageCodingError"
    }
}
