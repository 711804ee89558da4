import Dispatch
import FoundationEssentials

/// A memory cache of decoded images joined with a disk cache of encoded bytes, as
/// SDWebImage's `SDImageCache`: stores go to memory at once and to disk on the cache's I/O
/// queue; queries ask memory first, then disk, and put decoded disk hits in memory.
public final class ImageCache: ImageCaching {
    public let configuration: ImageCacheConfiguration
    /// The memory layer; nil when ``ImageCacheConfiguration/cachesImagesInMemory`` is false.
    public let memory: (any MemoryCache)?
    public let disk: any DiskCache
    public let coders: CodersManager
    /// Turns images into the bytes stored on disk; nil: the original data, or an encoding by ``encode(_:)``.
    public let serializer: (any CacheSerializer)?
    /// Disk work runs here, one operation at a time, as SDWebImage's `ioQueue`.
    let ioQueue = DispatchQueue(label: "webimage.image-cache.io")

    public init(
        memory: (any MemoryCache)?, disk: any DiskCache, coders: CodersManager,
        configuration: ImageCacheConfiguration = ImageCacheConfiguration(), serializer: (any CacheSerializer)? = nil
    ) {
        self.configuration = configuration
        self.memory = configuration.cachesImagesInMemory ? memory : nil
        self.disk = disk
        self.coders = coders
        self.serializer = serializer
    }

    /// An image cache whose layers are the plugins the configuration names, opened in `host`
    /// with the configuration's limits.
    /// - Throws: ``PluginFault`` when a plugin cannot be opened, ``CacheError`` when it refuses the options.
    public convenience init(
        host: PluginHost, coders: CodersManager, configuration: ImageCacheConfiguration = ImageCacheConfiguration()
    ) throws {
        let memory =
            configuration.cachesImagesInMemory
            ? try host.adapter(PluginMemoryCacheBackend.self, named: configuration.memoryPlugin)
                .make(configuration.memoryOptions) : nil
        let disk = try host.adapter(PluginDiskCacheBackend.self, named: configuration.diskPlugin)
            .open(configuration.diskOptions)
        self.init(memory: memory, disk: disk, coders: coders, configuration: configuration)
    }

    func onIOQueue<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            ioQueue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    // MARK: storing

    /// Stores `image` and its encoded `data` for `key` in the layers `cacheType` names: memory at
    /// once, before the first suspension, disk on the I/O queue. Without `data` the image is
    /// encoded (``encode(_:)``).
    public func store(_ image: DecodedImage?, data: Data?, forKey key: String, cacheType: ImageCacheType = .all)
        async throws
    {
        if cacheType.includesMemory, let image { storeInMemory(image, forKey: key) }
        guard cacheType.includesDisk else { return }
        let bytes: Data?
        if let image, let serializer {
            bytes = serializer.cacheData(for: image, originalData: data, key: key)
        } else if let data {
            bytes = data
        } else if let image {
            bytes = try encode(image)
        } else {
            bytes = nil
        }
        guard let bytes else { return }
        let disk = disk
        try await onIOQueue { try disk.store(bytes, extendedData: nil, forKey: key) }
    }

    /// ``store(_:data:forKey:cacheType:)`` with a completion called once, with the error or nil.
    public func store(
        _ image: DecodedImage?, data: Data?, forKey key: String, cacheType: ImageCacheType = .all,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        if cacheType.includesMemory, let image { storeInMemory(image, forKey: key) }
        let memoryDone: ImageCacheType = cacheType == .all ? .disk : (cacheType == .memory ? .none : cacheType)
        Task {
            do {
                try await store(image, data: data, forKey: key, cacheType: memoryDone)
                completion(nil)
            } catch {
                completion(error)
            }
        }
    }

    /// Puts `image` in memory with its pixel bytes as cost; an image the memory cache refuses is not kept.
    public func storeInMemory(_ image: DecodedImage, forKey key: String) {
        try? memory?.setValue(image, forKey: key, cost: UInt64(image.memoryCost))
    }

    /// The bytes an image without data is stored as: its own format when a coder encodes it,
    /// else GIF for an animated image, PNG when a pixel is not opaque, JPEG otherwise.
    public func encode(_ image: DecodedImage) throws -> Data {
        var candidates = [image.format]
        if image.traits.contains(.animated) { candidates.append("gif") }
        candidates.append(image.pixels.hasTranslucentPixels ? "png" : "jpeg")
        var lastError: (any Error)?
        for format in candidates {
            guard let (_, found) = try? coders.coder(forFormat: format), found.capabilities.contains(.encode) else {
                continue
            }
            do {
                return Data(try coders.encode(image.pixels, options: EncodeOptions(format: format)))
            } catch {
                lastError = error
            }
        }
        throw lastError
            ?? CacheError(.unsupportedOperation, "no coder encodes \(candidates.joined(separator: ", "))")
    }

    // MARK: querying

    /// The image in memory for `key`, without touching the disk: for hot paths.
    public func imageFromMemory(forKey key: String) -> DecodedImage? {
        memory?.value(forKey: key) as? DecodedImage
    }

    /// The image for `key`: from memory, else decoded from disk (and then put in memory), else
    /// nil. Disk data no coder can decode is a miss.
    /// - Throws: `CancellationError` when the task is cancelled; ``CacheError`` when the disk fails.
    public func query(_ key: String, options: ImageCacheQuery = ImageCacheQuery()) async throws -> ImageCacheResult? {
        let memoryKey = options.memoryKey(key)
        if !options.diskOnly, let image = imageFromMemory(forKey: memoryKey) {
            return ImageCacheResult(image: image, data: nil, cacheType: .memory)
        }
        if options.memoryOnly { return nil }
        return try await queryDisk(key, memoryKey: memoryKey, options: options)
    }

    /// The disk half of ``query(_:options:)``: the entry read on the I/O queue, decoded, and
    /// kept in memory under `memoryKey` unless disk only. Not inlined, so a memory-only
    /// query's async frame does not carry the decode's values (2.9 KB a request in flight).
    @inline(never)
    private func queryDisk(_ key: String, memoryKey: String, options: ImageCacheQuery) async throws
        -> ImageCacheResult?
    {
        try Task.checkCancellation()
        let disk = disk
        guard let entry = try await onIOQueue({ try disk.entry(forKey: key) }) else { return nil }
        try Task.checkCancellation()
        guard let image = try? decode(entry.data, options: options) else { return nil }
        if !options.diskOnly { storeInMemory(image, forKey: memoryKey) }
        return ImageCacheResult(image: image, data: entry.data, cacheType: .disk)
    }

    /// ``query(_:options:)`` as an operation with `cancel()`, as SDWebImage's
    /// `queryCacheOperationForKey`: `completion` is called exactly once, with a
    /// `CancellationError` when cancelled first.
    @discardableResult
    public func query(
        _ key: String, options: ImageCacheQuery = ImageCacheQuery(),
        completion: @escaping @Sendable (Result<ImageCacheResult?, any Error>) -> Void
    ) -> ImageCacheOperation {
        let operation = ImageCacheOperation(completion: completion)
        operation.start { [self] in try await query(key, options: options) }
        return operation
    }

    private func decode(_ data: Data, options: ImageCacheQuery) throws -> DecodedImage {
        try data.withUnsafeBytes { bytes in
            var decodeOptions = DecodeOptions()
            decodeOptions.firstFrameOnly = options.firstFrameOnly
            decodeOptions.thumbnail = options.thumbnail
            if decodeOptions.thumbnail == nil, let limit = options.maxPixelCount {
                let info = try coders.probe(bytes)
                decodeOptions.thumbnail = Self.scaledDown(
                    width: info.orientedWidth, height: info.orientedHeight, limit: limit)
            }
            return try coders.decode(bytes, options: decodeOptions)
        }
    }

    /// The box an image of `width` × `height` is shown in when it has more than `limit` pixels.
    static func scaledDown(width: Int, height: Int, limit: Int) -> ThumbnailSize? {
        guard width > 0, height > 0, limit > 0, width * height > limit else { return nil }
        let scale = (Double(limit) / Double(width * height)).squareRoot()
        return ThumbnailSize(width: max(1, Int(Double(width) * scale)), height: max(1, Int(Double(height) * scale)))
    }

    // MARK: removing and inspecting

    /// Removes `key` from memory and, when `fromDisk`, from disk.
    public func remove(_ key: String, fromDisk: Bool = true) async throws {
        memory?.removeValue(forKey: key)
        guard fromDisk else { return }
        let disk = disk
        try await onIOQueue { try disk.remove(key) }
    }

    public func clearMemory() { memory?.removeAll() }

    public func clearDisk() async throws {
        let disk = disk
        try await onIOQueue { try disk.removeAll() }
    }

    /// Removes disk entries past the age limit, then trims to the limits when over them.
    public func removeExpired() async throws {
        let disk = disk
        try await onIOQueue { try disk.removeExpired() }
    }

    /// Entries and bytes on disk, with the limits.
    public func diskTotals() async throws -> CacheTotals {
        let disk = disk
        return try await onIOQueue { try disk.totals() }
    }

    /// Where `key` is cached: `.memory` when in memory, else `.disk` when on disk, else `.none`.
    public func contains(_ key: String) async throws -> ImageCacheType {
        if memory?.value(forKey: key) != nil { return .memory }
        let disk = disk
        return try await onIOQueue { try disk.contains(key) } ? .disk : .none
    }

    /// The disk file of `key`, where the disk backend has files.
    public func path(forKey key: String) -> String? { disk.path(forKey: key) }
}
