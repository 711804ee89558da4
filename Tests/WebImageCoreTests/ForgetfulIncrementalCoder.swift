import WebImageCore

/// ``TestRawCoder`` whose incremental decoder never has an image to show.
struct ForgetfulIncrementalCoder: RawCoderForwarding, ProgressiveImageCoder {
    func makeIncrementalDecoder(request: DecodeRequest) throws -> any IncrementalImageDecoder {
        Decoder()
    }

    final class Decoder: IncrementalImageDecoder {
        func append(_ bytes: UnsafeRawBufferPointer, isFinal: Bool) throws {}

        func currentImage() throws -> DecodedImage? { nil }
    }
}
