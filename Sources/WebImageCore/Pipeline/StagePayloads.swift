/// A finished download: the bytes (after the decryptor), the response head and the metrics. A
/// class: every decode and result that comes from it holds one reference, where a struct of
/// this size was copied into each event, handler and payload.
final class DownloadedData: Sendable {
    let data: [UInt8]
    let response: LoadResponse
    let metrics: LoadMetrics
    /// The download's place in the manager's ``DownloadAdmission``, released when its decode
    /// starts.
    let lease: DownloadLease?

    init(data: [UInt8], response: LoadResponse, metrics: LoadMetrics, lease: DownloadLease?) {
        self.data = data
        self.response = response
        self.metrics = metrics
        self.lease = lease
    }
}

/// What the decode and transform stages produce.
struct DecodedPayload: Sendable {
    /// Nil with ``ImageManagerOptions/avoidDecodeImage``.
    var image: DecodedImage?
    var animation: DecodedAnimation?
    /// Frames in the source; 0 when unknown.
    var frameCount: Int
    /// The download the image came from; nil for cached images.
    var download: DownloadedData?
    /// True once a transformer changed the image (false when an animated image was passed
    /// through without ``ImageManagerOptions/transformAnimatedImage``).
    var transformed = false
    /// The decoded image before the transformers ran.
    var original: DecodedImage?

    /// True when the source has more than one frame (or the image says it is animated, its
    /// frame count unknown: a memory hit).
    var isAnimated: Bool { frameCount > 1 || image?.traits.contains(.animated) == true }
}
