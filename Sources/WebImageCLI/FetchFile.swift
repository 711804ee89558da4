import Foundation

/// Writes a downloaded body straight from its array to a new file (no intermediate copy).
enum FetchFile {
    struct WriteError: Error, LocalizedError {
        let errorDescription: String?
    }

    /// Creates `path` (it must not exist) and writes `bytes` to it.
    static func write(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError(errorDescription: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw WriteError(errorDescription: String(cString: strerror(errno)))
                }
                offset += written
            }
        }
    }
}
