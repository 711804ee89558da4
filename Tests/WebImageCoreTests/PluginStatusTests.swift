import CWebImagePlugin
import Testing
import WebImageCore

@Suite struct PluginStatusTests {
    @Test("every ABI status maps to its coding error kind")
    func codingErrorKinds() {
        let expected: [(webimage_status, ImageCodingError.Kind)] = [
            (WEBIMAGE_STATUS_INVALID_ARGUMENT, .invalidArgument),
            (WEBIMAGE_STATUS_UNSUPPORTED_FORMAT, .unsupportedFormat),
            (WEBIMAGE_STATUS_CORRUPT_DATA, .corruptData),
            (WEBIMAGE_STATUS_TRUNCATED_DATA, .truncatedData),
            (WEBIMAGE_STATUS_TOO_LARGE, .tooLarge),
            (WEBIMAGE_STATUS_OUT_OF_MEMORY, .outOfMemory),
            (WEBIMAGE_STATUS_NEED_MORE_DATA, .needMoreData),
            (WEBIMAGE_STATUS_UNSUPPORTED_OPERATION, .unsupportedOperation),
            (WEBIMAGE_STATUS_INTERNAL_ERROR, .internalError),
            (WEBIMAGE_STATUS_CANCELLED, .cancelled),
            (WEBIMAGE_STATUS_NOT_FOUND, .invalidArgument),
            (WEBIMAGE_STATUS_IO_ERROR, .internalError),
            (WEBIMAGE_STATUS_TIMED_OUT, .timedOut),
            (99, .internalError),
        ]
        for (status, kind) in expected {
            #expect(PluginStatus(status).codingErrorKind == kind, "status \(status)")
        }
    }

    @Test("the appended statuses follow the existing ones")
    func appendedValues() {
        #expect(
            [
                WEBIMAGE_STATUS_CANCELLED, WEBIMAGE_STATUS_NOT_FOUND, WEBIMAGE_STATUS_IO_ERROR,
                WEBIMAGE_STATUS_TIMED_OUT, WEBIMAGE_STATUS_REFUSED,
            ] == [10, 11, 12, 13, 14])
    }

    @Test("a loader's REFUSED is .destinationRefused; a coder's, with no counterpart, .internalError")
    func refusedStatus() {
        #expect(PluginStatus(WEBIMAGE_STATUS_REFUSED).loadingErrorKind == .destinationRefused)
        #expect(PluginStatus(WEBIMAGE_STATUS_REFUSED).codingErrorKind == .internalError)
        #expect(PluginStatus(WEBIMAGE_STATUS_INVALID_ARGUMENT).loadingErrorKind == .invalidURL)
    }

    @Test("every coding error kind a plugin can report crosses the ABI as a status that maps back to it")
    func roundTrip() {
        let hostOnly: [ImageCodingError.Kind] = [.pluginCrashed, .pluginDisabled, .pluginUnavailable]
        for kind in ImageCodingError.Kind.allCases where !hostOnly.contains(kind) {
            #expect(PluginStatus(kind.status).codingErrorKind == kind, "kind \(kind)")
        }
        #expect(hostOnly.allSatisfy { $0.status == WEBIMAGE_STATUS_INTERNAL_ERROR })
    }
}

@Suite struct ShimCallTests {
    let call = ShimCall(format: "PNG", library: "libpng")

    /// Runs a shim stand-in that writes `message` and returns `status`.
    func failure(_ status: webimage_status, _ message: String) -> ImageCodingError? {
        do {
            try call.run { error in message.withCString { webimage_fail(&error, status, $0) } }
            return nil
        } catch {
            return error
        }
    }

    @Test("OK throws nothing")
    func succeeds() throws {
        try call.run { _ in WEBIMAGE_STATUS_OK }
    }

    @Test("truncated and corrupt data name the format; other statuses keep the shim's words")
    func wording() {
        #expect(
            failure(WEBIMAGE_STATUS_TRUNCATED_DATA, "the end")
                == ImageCodingError(.truncatedData, "truncated PNG: the end"))
        #expect(
            failure(WEBIMAGE_STATUS_CORRUPT_DATA, "bad CRC") == ImageCodingError(.corruptData, "corrupt PNG: bad CRC"))
        #expect(
            failure(WEBIMAGE_STATUS_UNSUPPORTED_FORMAT, "not PNG") == ImageCodingError(.unsupportedFormat, "not PNG"))
        #expect(failure(WEBIMAGE_STATUS_TOO_LARGE, "big") == ImageCodingError(.tooLarge, "big"))
        #expect(failure(WEBIMAGE_STATUS_CANCELLED, "stopped") == ImageCodingError(.cancelled, "stopped"))
    }

    @Test("a shim that gives no reason is worded with the library's name")
    func emptyMessage() {
        #expect(
            failure(WEBIMAGE_STATUS_CORRUPT_DATA, "") == ImageCodingError(.corruptData, "corrupt PNG: libpng failed"))
        #expect(failure(WEBIMAGE_STATUS_OUT_OF_MEMORY, "") == ImageCodingError(.outOfMemory, "libpng failed"))
    }
}

@Suite struct PixelLimitCheckTests {
    /// The status and message of webimage_check_pixel_limit.
    func check(_ width: UInt32, _ height: UInt32, limit: UInt64) -> (webimage_status, String) {
        var storage = [CChar](repeating: 0, count: 128)
        return storage.withUnsafeMutableBufferPointer { buffer in
            var error = webimage_error(message: buffer.baseAddress!, message_capacity: buffer.count)
            let status = webimage_check_pixel_limit(width, height, limit, &error)
            return (status, String(cString: buffer.baseAddress!))
        }
    }

    @Test("0 is no limit, and an image exactly at the limit fits")
    func fits() {
        #expect(check(100, 100, limit: 0) == (WEBIMAGE_STATUS_OK, ""))
        #expect(check(100, 100, limit: 10_000) == (WEBIMAGE_STATUS_OK, ""))
        #expect(check(.max, .max, limit: .max) == (WEBIMAGE_STATUS_OK, ""))
    }

    @Test("over the limit: TOO_LARGE with the host's wording")
    func tooLarge() {
        let (status, message) = check(100, 100, limit: 9_999)
        #expect(status == WEBIMAGE_STATUS_TOO_LARGE)
        #expect(message == ImageCodingError.tooLarge(width: 100, height: 100, limit: 9_999).message)
        #expect(check(.max, .max, limit: UInt64(UInt32.max)).0 == WEBIMAGE_STATUS_TOO_LARGE)
    }
}
