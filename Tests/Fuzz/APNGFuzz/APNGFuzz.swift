import PNGCoder
import WebImageCoding

/// libFuzzer entry: the PNG coder's APNG path (chunk parser, per-frame libpng decode,
/// compositing) and its still decode, on arbitrary bytes, under a 4-megapixel limit.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let coder = PNGImageCoder()
    let request = DecodeRequest(maxPixelCount: 1 << 22)
    _ = try? bytes.withUnsafeBytes { try coder.decode($0, request: request) }
    if let animation = try? coder.openAnimation(bytes) {
        for index in 0..<min(animation.info.frameCount, 32) {
            _ = animation.frameDuration(at: index)
            _ = try? animation.decodeFrame(at: index, request: request)
        }
        _ = try? animation.decodeFrame(at: 0, request: request)
    }
    return 0
}
