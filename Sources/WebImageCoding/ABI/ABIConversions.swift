import CWebImagePlugin

extension webimage_decode_options {
    /// The C options for a request.
    public init(_ request: DecodeRequest) {
        self.init()
        struct_size = UInt32(MemoryLayout<webimage_decode_options>.size)
        pixel_format = request.pixelFormat.rawValue
        if let box = request.thumbnailBox {
            thumbnail_width = UInt32(clamping: box.width)
            thumbnail_height = UInt32(clamping: box.height)
        }
        max_pixel_count = UInt64(max(0, request.maxPixelCount))
        flags = request.firstFrameOnly ? WEBIMAGE_DECODE_FIRST_FRAME_ONLY : 0
        max_byte_count = UInt64(max(0, request.maxByteCount))
        deadline_ns = request.deadlineNanoseconds
    }
}

extension DecodeRequest {
    /// The request for C options; reads only the fields `struct_size` covers.
    public init(_ options: UnsafePointer<webimage_decode_options>, allocator: PixelAllocator) {
        let copy = ABIStruct.read(options)
        self.init(
            pixelFormat: PixelFormat(rawValue: copy.pixel_format) ?? .rgba8,
            thumbnailBox: copy.thumbnail_width > 0 && copy.thumbnail_height > 0
                ? (Int(copy.thumbnail_width), Int(copy.thumbnail_height)) : nil,
            maxPixelCount: Int(clamping: copy.max_pixel_count),
            firstFrameOnly: copy.flags & WEBIMAGE_DECODE_FIRST_FRAME_ONLY != 0,
            allocator: allocator)
        maxByteCount = Int(clamping: copy.max_byte_count)
        deadline = copy.deadline_ns == 0 ? nil : DecodeDeadline(monotonicNanoseconds: copy.deadline_ns)
    }
}

extension ImageInfo {
    /// The info for a C struct; `formats` resolves `format_index`.
    public init(_ info: webimage_image_info, formats: [ImageFormat]) {
        self.init(
            format: formats.indices.contains(Int(info.format_index)) ? formats[Int(info.format_index)].name : "unknown",
            width: Int(info.width), height: Int(info.height), frameCount: max(1, Int(info.frame_count)),
            loopCount: Int(info.loop_count), orientation: ImageOrientation(exifValue: info.orientation),
            bitsPerComponent: Int(info.bits_per_component), traits: Traits(rawValue: info.flags))
    }

    /// The C struct for this info; `formats` gives `format_index`.
    public func cInfo(formats: [ImageFormat]) -> webimage_image_info {
        var info = webimage_image_info()
        info.struct_size = UInt32(MemoryLayout<webimage_image_info>.size)
        info.format_index = UInt32(formats.firstIndex { $0.name == format } ?? 0)
        info.width = UInt32(clamping: width)
        info.height = UInt32(clamping: height)
        info.frame_count = UInt32(clamping: frameCount)
        info.loop_count = UInt32(clamping: loopCount)
        info.orientation = orientation.rawValue
        info.bits_per_component = UInt32(clamping: bitsPerComponent)
        info.flags = traits.rawValue
        return info
    }
}

extension webimage_image {
    /// Hands `image`'s pixels over to the C struct; the buffer gives up ownership.
    /// - Parameter formatIndex: the index of `image.format` in the coder's formats.
    public init(handingOver image: DecodedImage, formatIndex: Int) {
        self.init()
        struct_size = UInt32(MemoryLayout<webimage_image>.size)
        width = UInt32(image.width)
        height = UInt32(image.height)
        pixel_format = image.pixels.format.rawValue
        stride = image.pixels.bytesPerRow
        pixels = image.pixels.detach()
        orientation = image.orientation.rawValue
        flags = image.traits.rawValue
        source_width = UInt32(clamping: image.sourceWidth)
        source_height = UInt32(clamping: image.sourceHeight)
        format_index = UInt32(clamping: formatIndex)
    }

    /// Writes this image into the host's struct at `destination`, only as many bytes as the
    /// host's `struct_size` says it has (a host built against an older header has fewer fields).
    public func write(to destination: UnsafeMutablePointer<webimage_image>) {
        var copy = self
        let hostSize = Int(destination.pointee.struct_size)
        let size = hostSize > 0 ? min(hostSize, MemoryLayout<webimage_image>.size) : MemoryLayout<webimage_image>.size
        copy.struct_size = UInt32(size)
        withUnsafeBytes(of: &copy) {
            UnsafeMutableRawPointer(destination).copyMemory(from: $0.baseAddress!, byteCount: size)
        }
    }
}

extension webimage_image_view {
    /// A view of `buffer`'s pixels, valid while `buffer` lives.
    public init(_ buffer: PixelBuffer) {
        self.init(
            width: UInt32(buffer.width), height: UInt32(buffer.height), pixel_format: buffer.format.rawValue,
            reserved: 0, stride: buffer.bytesPerRow, pixels: UnsafeRawPointer(buffer.baseAddress))
    }
}

extension webimage_encode_options {
    /// The C options for a request; `formats` gives `format_index`.
    public init(_ request: EncodeRequest, formats: [ImageFormat]) {
        self.init()
        struct_size = UInt32(MemoryLayout<webimage_encode_options>.size)
        format_index = UInt32(formats.firstIndex { $0.name == request.format } ?? 0)
        quality = Float(min(1, max(0, request.quality)))
        background_rgba = request.backgroundColor
        flags = request.lossless ? WEBIMAGE_ENCODE_LOSSLESS : 0
        loop_count = UInt32(clamping: request.loopCount)
    }
}

extension EncodeRequest {
    /// The request for C options; `formats` resolves `format_index`, and the encoded bytes
    /// are allocated from `allocator` (a plugin passes the host's).
    public init(
        _ options: UnsafePointer<webimage_encode_options>, formats: [ImageFormat], allocator: PixelAllocator = .system
    ) {
        let copy = ABIStruct.read(options)
        let index = Int(copy.format_index)
        self.init(
            format: formats.indices.contains(index) ? formats[index].name : formats.first?.name ?? "",
            quality: Double(copy.quality), backgroundColor: copy.background_rgba,
            lossless: copy.flags & WEBIMAGE_ENCODE_LOSSLESS != 0, loopCount: Int(copy.loop_count),
            allocator: allocator)
    }
}

extension PixelBuffer {
    /// A buffer that borrows the pixels of a C view (no copy, not freed).
    public convenience init(borrowing view: webimage_image_view) throws {
        guard let format = PixelFormat(rawValue: view.pixel_format), view.width > 0, view.height > 0,
            view.stride >= Int(view.width) * format.bytesPerPixel
        else {
            throw ImageCodingError(.invalidArgument, "invalid image view \(view.width)×\(view.height)")
        }
        self.init(
            adopting: UnsafeMutableRawPointer(mutating: view.pixels), width: Int(view.width),
            height: Int(view.height), bytesPerRow: view.stride, format: format, deallocate: nil)
    }
}

/// Reading versioned structs: only the bytes that `struct_size` covers, the rest zero.
public enum ABIStruct {
    /// A copy of `*pointer` where bytes past its `struct_size` (a `UInt32` at byte
    /// `sizeOffset`) are zero. Never reads past the size the writer declared.
    public static func read<Value>(_ pointer: UnsafePointer<Value>, sizeOffset: Int = 0) -> Value {
        let declaredSize = Int(UnsafeRawPointer(pointer).loadUnaligned(fromByteOffset: sizeOffset, as: UInt32.self))
        let fullSize = MemoryLayout<Value>.size
        let available = min(max(declaredSize, sizeOffset + 4), fullSize)
        let storage = UnsafeMutableRawPointer.allocate(byteCount: fullSize, alignment: MemoryLayout<Value>.alignment)
        defer { storage.deallocate() }
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: fullSize)
        storage.copyMemory(from: pointer, byteCount: available)
        return storage.load(as: Value.self)
    }

    /// The `struct_size` a versioned struct declares.
    public static func declaredSize<Value>(_ pointer: UnsafePointer<Value>, sizeOffset: Int = 0) -> Int {
        Int(UnsafeRawPointer(pointer).loadUnaligned(fromByteOffset: sizeOffset, as: UInt32.self))
    }
}
