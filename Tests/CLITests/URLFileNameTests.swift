import Testing
import WebImageCLISupport

@Suite("URLFileName: the file a URL is saved under")
struct URLFileNameTests {
    @Test(
        "the raw last segment, made safe",
        arguments: [
            ("http://127.0.0.1/a/photo.png", "photo.png"),
            ("http://127.0.0.1/a/photo.png?size=1/2#part/3", "photo.png"),
            ("http://127.0.0.1/dir/", "dir"),
            ("http://127.0.0.1//a//", "a"),
            ("ftp://127.0.0.1/x.bin", "x.bin"),
            ("http://127.0.0.1/%2e%2e", "_2e_2e"),
            ("http://127.0.0.1/.hidden", ".hidden"),
            ("http://127.0.0.1/a b:c.png", "a_b_c.png"),
            ("http://127.0.0.1/line\r\nbreak.png", "line_break.png"),
            ("http://127.0.0.1/café.png", "café.png"),
            ("http://127.0.0.1/a\u{200B}b.png", "a_b.png"),
        ])
    func names(url: String, name: String) {
        #expect(URLFileName.name(for: url) == name)
    }

    @Test(
        "no usable segment is the fallback name",
        arguments: [
            "http://127.0.0.1", "http://127.0.0.1/", "http:///a", "http://127.0.0.1/?q=/x/y", "http://127.0.0.1/...",
            "data:image/png;base64,AAAA", "not a URL", "",
        ])
    func fallback(url: String) {
        #expect(URLFileName.name(for: url) == "index")
    }

    @Test("names are cut to 200 bytes, on a character boundary")
    func cut() {
        #expect(
            URLFileName.name(for: "http://127.0.0.1/" + String(repeating: "x", count: 250))
                == String(repeating: "x", count: 200))
        #expect(
            URLFileName.name(for: "http://127.0.0.1/" + String(repeating: "é", count: 150))
                == String(repeating: "é", count: 100))
        #expect(URLFileName.name(for: "http://127.0.0.1/x" + String(repeating: "é", count: 150)).utf8.count == 199)
    }
}
