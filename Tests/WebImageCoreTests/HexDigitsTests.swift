import Testing
import WebImageCore

/// `UInt8(hexDigit:)` and `String(hexEncoding:)`: how hex is read and written.
@Suite struct HexDigitsTests {
    @Test func encodesLowercaseTwoDigitsAByte() {
        #expect(String(hexEncoding: [0x00, 0x0A, 0xFF, 0x89, 0x5C]) == "000aff895c")
        #expect(String(hexEncoding: [UInt8]()) == "")
    }

    @Test func readsDigitsOfEitherCase() {
        #expect(Array("09afAF".utf8).map { UInt8(hexDigit: $0) } == [0, 9, 10, 15, 10, 15])
        #expect(Array("g/:@`G".utf8).allSatisfy { UInt8(hexDigit: $0) == nil })
    }
}
