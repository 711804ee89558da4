import Foundation
import Testing

@testable import WebImageServer

/// The server's own URL-safe base64 decoder (signatures and base64 sources) against
/// Foundation's decoder of the standard alphabet, which it replaced on the request path.
@Suite struct URLSafeBase64Tests {
    /// Foundation's answer for URL-safe `text`: the alphabet mapped back to the standard
    /// one, the padding made whole; `+`, `/` and a length of 4n + 1 are refused.
    static func foundationDecode(_ text: String) -> [UInt8]? {
        guard !text.contains(where: { $0 == "+" || $0 == "/" }) else { return nil }
        var standard = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while standard.hasSuffix("=") { standard.removeLast() }
        guard standard.count % 4 != 1 else { return nil }
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard).map { Array($0) }
    }

    /// 50,000 strings of 0 to 13 characters from the alphabet, padding, the standard
    /// alphabet's two characters and a few that are never base64: the same bytes or the same
    /// refusal as Foundation, each time (thousands of them decode), but for padding followed
    /// by more text, which Foundation reads in places ("aZ=B" gives [105, 1]) and this decoder
    /// refuses, as Go's decoder does for imgproxy.
    @Test func answersAsFoundationDoes() {
        let characters = Array("ABYZabyz0189-_=+/ .%\u{e9}")
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var decoded = 0
        for _ in 0..<50_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(state >> 60) % 14
            var text = ""
            for position in 0..<length {
                let pick = Int((state >> UInt64(4 * (position % 15))) & 0xFF) ^ (position * 7)
                text.append(characters[pick % characters.count])
            }
            let unpadded = text.reversed().drop { $0 == "=" }
            let expected = unpadded.contains("=") ? nil : Self.foundationDecode(text)
            #expect(URLSafeBase64.decode(text) == expected, "'\(text)'")
            if expected != nil { decoded += 1 }
        }
        #expect(decoded > 2_000)
    }

    @Test func roundTripsEveryLength() {
        for length in 0...40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ length) }
            let text = URLSafeBase64.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(URLSafeBase64.decode(text) == bytes, "\(length) bytes")
            #expect(URLSafeBase64.decode(text + String(repeating: "=", count: (4 - text.count % 4) % 4)) == bytes)
        }
    }
}
