import Foundation
import Testing
import WebImageCLISupport
import WebImageTestSupport

@Suite("InputFile")
struct InputFileTests {
    @Test("a regular file: exactly its bytes")
    func regularFile() throws {
        let folder = try TemporaryDirectory()
        let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let path = folder.file("bytes.bin")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try InputFile.read(path) == bytes)
    }

    @Test("an empty file: no bytes")
    func emptyFile() throws {
        let folder = try TemporaryDirectory()
        try folder.write("empty", "")
        #expect(try InputFile.read(folder.file("empty")) == [])
    }

    @Test("a missing file, a folder, a device, a FIFO and a path through a file: one typed error each")
    func failures() throws {
        let folder = try TemporaryDirectory()
        try folder.write("file", "x")
        let fifo = folder.file("fifo")
        try #require(mkfifo(fifo, 0o600) == 0)
        let missing = folder.file("missing.png")
        let throughFile = folder.file("file") + "/inside.png"
        #expect(throws: InputFileError.missing(path: missing)) { try InputFile.read(missing) }
        #expect(throws: InputFileError.folder(path: folder.path)) { try InputFile.read(folder.path) }
        #expect(throws: InputFileError.notRegularFile(path: "/dev/null")) { try InputFile.read("/dev/null") }
        #expect(throws: InputFileError.notRegularFile(path: fifo)) { try InputFile.read(fifo) }
        #expect(throws: InputFileError.unreadable(path: throughFile, reason: "Not a directory")) {
            try InputFile.read(throughFile)
        }
    }

    @Test("the messages name the path and the reason")
    func messages() {
        #expect(InputFileError.missing(path: "a.png").description == "no such file: 'a.png'")
        #expect(InputFileError.folder(path: "dir").description == "'dir' is a folder, not a file")
        #expect(InputFileError.notRegularFile(path: "/dev/null").description == "'/dev/null' is not a regular file")
        #expect(
            InputFileError.unreadable(path: "a.png", reason: "Permission denied").description
                == "cannot read 'a.png': Permission denied")
    }
}
