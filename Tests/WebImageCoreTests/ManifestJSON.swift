/// A manifest's JSON text with the given fields (and sensible coder defaults).
func manifestJSON(
    name: String, version: String = "1.0.0", abiVersion: Int = 1, library: String? = nil, kinds: String = "[\"coder\"]",
    priority: Int = 0, format: String? = nil, mimeType: String? = nil, extensions: [String]? = nil,
    signature: String = "ffd8"
) -> String {
    let formatName = format ?? name
    let extensionList = (extensions ?? [formatName]).map { "\"\($0)\"" }.joined(separator: ", ")
    return """
        { "name": "\(name)", "version": "\(version)", "abi_version": \(abiVersion),
          "library": "\(library ?? "lib\(name).so")", "kinds": \(kinds), "priority": \(priority),
          "formats": [{ "name": "\(formatName)", "mime_types": ["\(mimeType ?? "image/x-\(formatName)")"],
                        "extensions": [\(extensionList)], "signatures": ["\(signature)"], "capabilities": ["decode"] }] }
        """
}
