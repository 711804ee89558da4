import Testing
import WebImageCore

/// Header names are compared with ASCII letters folded, byte by byte.
@Suite struct HTTPHeadersTests {
    @Test func namesMatchWhateverTheCaseOfTheirASCIILetters() {
        let headers: HTTPHeaders = ["Content-Type": "image/png", "ETAG": "\"v1\"", "x-custom-9": "a"]
        #expect(headers["content-type"] == "image/png")
        #expect(headers["CONTENT-TYPE"] == "image/png")
        #expect(headers["ETag"] == "\"v1\"")
        #expect(headers["X-Custom-9"] == "a")
    }

    @Test func namesThatDifferInOneByteOrInLengthDoNotMatch() {
        let headers: HTTPHeaders = ["Content-Type": "image/png", "Age": "3"]
        #expect(headers["Content-Typf"] == nil)
        #expect(headers["Content-Type "] == nil)
        #expect(headers["Content"] == nil)
        // Only A-Z fold: "[" is "{" minus 0x20 and "@" is "`" minus 0x20, yet neither is a letter.
        #expect(HTTPHeaders([(name: "[", value: "1")])["{"] == nil)
        #expect(HTTPHeaders([(name: "@", value: "1")])["`"] == nil)
    }

    @Test func nonASCIILettersAreNotFolded() {
        let headers = HTTPHeaders([(name: "Äge", value: "1")])
        #expect(headers["Äge"] == "1")
        #expect(headers["äge"] == nil)
    }

    @Test func settingANameReplacesEveryFieldOfItWhateverItsCase() {
        var headers = HTTPHeaders([(name: "Vary", value: "a"), (name: "Age", value: "1"), (name: "VARY", value: "b")])
        headers["vary"] = "c"
        #expect(headers.fields.map(\.name) == ["Vary", "Age"])
        #expect(headers["VARY"] == "c")
        headers["vAry"] = nil
        #expect(headers.fields.map(\.name) == ["Age"])
    }
}
