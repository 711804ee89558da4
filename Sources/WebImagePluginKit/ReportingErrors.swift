import CWebImagePlugin
import WebImageCoding

/// Runs `body`, turning a thrown error into a status code and message.
func reportingErrors(_ error: UnsafeMutablePointer<webimage_error>, _ body: () throws -> Void) -> webimage_status {
    do {
        try body()
        return WEBIMAGE_STATUS_OK
    } catch let failure as ImageCodingError {
        return webimage_fail(error, failure.kind.status, failure.message)
    } catch let failure as ImageTransformError {
        return webimage_fail(error, failure.kind.status, failure.message)
    } catch let failure {
        return webimage_fail(error, WEBIMAGE_STATUS_INTERNAL_ERROR, "\(failure)")
    }
}
