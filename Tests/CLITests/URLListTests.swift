import Foundation
import Testing
import WebImageCLISupport
import WebImageTestSupport

@Suite("URLList")
struct URLListTests {
    @Test("ASCII lines: split at LF, CR LF, CR, VT and FF; spaces and tabs around each trimmed")
    func asciiLines() {
        let text = " http://a/1.png \r\n\thttp://a/2.png\t\rhttp://a/3 4.png\u{0B}\u{0C}  \n#x\nhttp://a/5.png"
        #expect(
            URLList.lines(of: text) == [
                "http://a/1.png", "http://a/2.png", "http://a/3 4.png", "", "#x", "http://a/5.png",
            ])
    }

    @Test("non-ASCII lines: Unicode newlines split, Unicode spaces trimmed, inner text kept")
    func unicodeLines() {
        let text = "\u{00A0}http://a/é.png\u{2003}\u{2028}http://a/2.png\u{0085} \u{3000}\u{2029}http://ü/3.png"
        #expect(URLList.lines(of: text) == ["http://a/é.png", "http://a/2.png", "", "http://ü/3.png"])
    }

    @Test("a list file: blank lines and comments skipped, repeats kept; urls(…) keeps each once")
    func listFile() throws {
        let folder = try TemporaryDirectory()
        try folder.write("urls", "http://a/1.png\n\n  # a comment\n http://a/2.png \nhttp://a/1.png\n")
        #expect(try URLList.listedURLs(folder.file("urls")) == ["http://a/1.png", "http://a/2.png", "http://a/1.png"])
        #expect(
            try URLList.urls(arguments: ["http://a/0.png"], listFile: folder.file("urls")) == [
                "http://a/0.png", "http://a/1.png", "http://a/2.png",
            ])
    }
}
