import CWebImagePlugin
import WebImageCoding

#if canImport(Glibc)
    import Glibc
#endif

/// The `webimage_coder` table of an exported coder.
enum CoderTable {
    /// A table for `coder` whose functions find it through ``ExportedCoder/installed``;
    /// allocated once and never freed (the host may use it for the life of the process).
    static func make(for coder: any ImageCoder, threadSafe: Bool) -> UnsafePointer<webimage_coder> {
        let formats = UnsafeMutablePointer<webimage_format>.allocate(capacity: coder.formats.count)
        for (index, format) in coder.formats.enumerated() {
            (formats + index).initialize(
                to: webimage_format(
                    name: strdup(format.name)!, mime_type: strdup(format.mimeType)!,
                    capabilities: format.capabilities.rawValue, reserved: 0))
        }
        let encodes = coder.formats.contains { $0.capabilities.contains(.encode) }
        let progressive = coder is any ProgressiveImageCoder
        let animated = coder is any AnimatedImageCoder
        let streams = coder is any StreamingAnimationCoder
        let table = UnsafeMutablePointer<webimage_coder>.allocate(capacity: 1)
        table.initialize(
            to: webimage_coder(
                struct_size: UInt32(MemoryLayout<webimage_coder>.size),
                flags: threadSafe ? WEBIMAGE_CODER_THREAD_SAFE : 0,
                formats: UnsafePointer(formats),
                format_count: UInt32(coder.formats.count),
                reserved: 0,
                can_decode: CoderTableFunctions.canDecode,
                probe: CoderTableFunctions.probe,
                decode: CoderTableFunctions.decode,
                encode: encodes ? CoderTableFunctions.encode : nil,
                incremental_create: progressive ? IncrementalTableFunctions.create : nil,
                incremental_append: progressive ? IncrementalTableFunctions.append : nil,
                incremental_copy_image: progressive ? IncrementalTableFunctions.copyImage : nil,
                incremental_destroy: progressive ? IncrementalTableFunctions.destroy : nil,
                animation_open: animated ? AnimationTableFunctions.open : nil,
                animation_frame_duration: animated ? AnimationTableFunctions.frameDuration : nil,
                animation_decode_frame: animated ? AnimationTableFunctions.decodeFrame : nil,
                animation_close: animated ? AnimationTableFunctions.close : nil,
                encode_animation: animated ? CoderTableFunctions.encodeAnimation : nil,
                animation_encoder_create: streams ? AnimationEncoderTableFunctions.create : nil,
                animation_encoder_add: streams ? AnimationEncoderTableFunctions.add : nil,
                animation_encoder_finish: streams ? AnimationEncoderTableFunctions.finish : nil,
                animation_encoder_destroy: streams ? AnimationEncoderTableFunctions.destroy : nil))
        return UnsafePointer(table)
    }
}
