import WebImageCore

/// A test coder that is ``TestRawCoder`` for still images (formats, sniffing, probe, decode,
/// encode) and differs only in what it adds.
protocol RawCoderForwarding: ImageCoder {}

extension RawCoderForwarding {
    var formats: [ImageFormat] { [TestRawCoder.format] }

    func canDecode(_ bytes: UnsafeRawBufferPointer) -> Bool { TestRawCoder().canDecode(bytes) }

    func probe(_ bytes: UnsafeRawBufferPointer) throws -> ImageInfo { try TestRawCoder().probe(bytes) }

    func decode(_ bytes: UnsafeRawBufferPointer, request: DecodeRequest) throws -> DecodedImage {
        try TestRawCoder().decode(bytes, request: request)
    }

    func encode(_ image: PixelBuffer, request: EncodeRequest) throws -> EncodedImageData {
        try TestRawCoder().encode(image, request: request)
    }
}
