import Testing

@testable import WebImageServer

@Suite("Duration.millisecondsText")
struct DurationTextTests {
    @Test("durations print in milliseconds with one decimal, rounded half up")
    func millisecondsText() {
        #expect(Duration.zero.millisecondsText == "0.0")
        #expect(Duration.microseconds(1_249).millisecondsText == "1.2")
        #expect(Duration.microseconds(1_250).millisecondsText == "1.3")
        #expect(Duration.milliseconds(2_345_678).millisecondsText == "2345678.0")
        #expect(Duration.microseconds(99_960).millisecondsText == "100.0")
    }
}
