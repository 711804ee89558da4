/// The bytes of an interrupted download kept to resume it (Nuke's rules): kept only when
/// the response said `Accept-Ranges: bytes` and had a validator (ETag, else Last-Modified);
/// the next download of the URL asks for the rest with `Range` and `If-Range`, and uses
/// the saved bytes only when the answer is 206.
struct ResumableData: Sendable {
    let bytes: [UInt8]
    /// The value sent as `If-Range`.
    let validator: String

    /// The resumable part of an interrupted download, or nil when it cannot be resumed.
    init?(response: LoadResponse?, body: [UInt8]) {
        guard let response, !body.isEmpty, response.statusCode == 200 || response.statusCode == 206,
            response.headers["Accept-Ranges"]?.lowercased() == "bytes",
            let validator = response.headers["ETag"] ?? response.headers["Last-Modified"]
        else { return nil }
        self.bytes = body
        self.validator = validator
    }
}
