import Testing

@testable import WebImageCore

/// Which decode failures put a URL in the failed-URL list: those the same bytes would repeat,
/// not those caused by the coder's plugin or the process.
@Suite struct FailedURLListTests {
    func blocks(_ kind: ImageCodingError.Kind) -> Bool {
        FailedURLList.blocks(.decode(ImageCodingError(kind, "test"), url: "http://127.0.0.1/a.png"))
    }

    @Test func decodeFailuresOfTheBytesBlock() {
        let repeating: [ImageCodingError.Kind] = [
            .unsupportedFormat, .corruptData, .truncatedData, .tooLarge, .pluginCrashed, .timedOut,
        ]
        #expect(repeating.filter { !blocks($0) } == [])
    }

    @Test func decodeFailuresOutsideTheBytesDoNotBlock() {
        let passing: [ImageCodingError.Kind] = [.pluginUnavailable, .pluginDisabled, .outOfMemory, .cancelled]
        #expect(passing.filter { blocks($0) } == [])
    }
}
