#if canImport(Glibc)
    import Glibc
#endif

/// Reads the process's standard input and writes its standard output and error (descriptors 0,
/// 1 and 2) directly, without Foundation's `FileHandle` and without stdio's buffers, so that
/// what is written is out before the call returns.
package enum StandardStreams {
    /// Writes all of `text` to descriptor 2; an error (a closed descriptor) drops the rest.
    package static func writeError(_ text: String) { write(text, to: 2) }

    /// Writes all of `text` to descriptor 1; an error (a closed pipe) drops the rest.
    package static func writeOutput(_ text: String) { write(text, to: 1) }

    /// Everything on descriptor 0 until its end (a pipe closed, a file read to the end); what
    /// came before a read error.
    package static func readInput() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// Writes all of `bytes` to descriptor 1; an error (a closed pipe) drops the rest.
    package static func writeOutput(_ bytes: UnsafeRawBufferPointer) { write(bytes, to: 1) }

    private static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0), to: descriptor) }
    }

    private static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
