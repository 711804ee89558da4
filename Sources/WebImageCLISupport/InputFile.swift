import Glibc

/// Reading the image file a command works on.
public enum InputFile {
    /// All bytes of the regular file at `path`, read straight into one array of the file's
    /// size (the only copy of the bytes the process holds).
    ///
    /// If the file shrinks while it is read, the array holds the bytes that were there; bytes
    /// appended after the size was taken are not read.
    /// - Throws: ``InputFileError`` when the file is missing, a folder, not a regular file,
    ///   or cannot be opened or read.
    public static func read(_ path: String) throws(InputFileError) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO must not wait for a writer before fstat refuses it; it
        // changes nothing for regular files.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw openError(path: path, code: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .unreadable(path: path, reason: systemMessage(errno))
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .folder(path: path)
        default: throw .notRegularFile(path: path)
        }
        let size = Int(status.st_size)
        var readError: Int32?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            while count < size {
                let result = Glibc.read(descriptor, buffer.baseAddress! + count, size - count)
                if result > 0 {
                    count += result
                } else if result == 0 {
                    return
                } else if errno != EINTR {
                    readError = errno
                    return
                }
            }
        }
        if let readError { throw .unreadable(path: path, reason: systemMessage(readError)) }
        return bytes
    }

    private static func openError(path: String, code: Int32) -> InputFileError {
        code == ENOENT ? .missing(path: path) : .unreadable(path: path, reason: systemMessage(code))
    }

    /// The C library's text for `code`, such as "Permission denied".
    private static func systemMessage(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
