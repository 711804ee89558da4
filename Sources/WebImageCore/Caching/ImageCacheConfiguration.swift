/// How an ``ImageCache`` is set up (SDWebImage's `SDImageCacheConfig`), and which plugins
/// back its memory and disk layers when it is made from a ``PluginHost``.
public struct ImageCacheConfiguration: Sendable {
    /// What a disk entry's age is measured from (SDWebImage's `SDImageCacheConfigExpireType`).
    public enum ExpireType: String, Sendable, CaseIterable {
        case access, modification, creation
    }

    /// Keep decoded images in memory; default true.
    public var cachesImagesInMemory = true
    /// The memory cache's cost limit in bytes; nil: the plugin's default (15% of available memory, at most 768 MiB).
    public var memoryCostLimit: UInt64?
    /// The memory cache's count limit; nil: none.
    public var memoryCountLimit: UInt64?
    /// The disk age limit in seconds; default one week; 0: none.
    public var diskAgeLimit: UInt64 = 604_800
    /// The disk size limit in bytes; default 0, none.
    public var diskSizeLimit: UInt64 = 0
    /// The disk count limit; default 0, none.
    public var diskCountLimit: UInt64 = 0
    /// Default `.modification`, as SDWebImage.
    public var expireType = ExpireType.modification
    /// The disk namespace; default `default`.
    public var namespace = "default"
    /// The disk folder; nil: the plugin's default (`$WEBIMAGE_CACHE_DIR`, `$XDG_CACHE_HOME/webimage`, `~/.cache/webimage`).
    public var directory: String?
    /// The plugin behind the memory layer; default `memory`.
    public var memoryPlugin = "memory"
    /// The plugin behind the disk layer; default `disk`.
    public var diskPlugin = "disk"

    public init() {}

    /// The options the memory plugin is made with.
    public var memoryOptions: CacheConfiguration {
        var options = CacheConfiguration()
        if let memoryCostLimit { options["max-cost"] = String(memoryCostLimit) }
        if let memoryCountLimit { options["max-count"] = String(memoryCountLimit) }
        return options
    }

    /// Options appended for the disk plugin after the ones this configuration derives (a
    /// redis `url` and `timeout-ms`, for example); default none.
    public var extraDiskOptions = CacheConfiguration()

    /// The options the disk plugin is opened with: `namespace` and `max-age` for every backend;
    /// `directory`, `max-size`, `max-count` and `expire-type` for the `disk` plugin only (Redis
    /// keeps its own size limit and has no files); then ``extraDiskOptions``.
    public var diskOptions: CacheConfiguration {
        var options = CacheConfiguration()
        options["namespace"] = namespace
        options["max-age"] = String(diskAgeLimit)
        if diskPlugin == "disk" {
            if let directory { options["directory"] = directory }
            options["max-size"] = String(diskSizeLimit)
            options["max-count"] = String(diskCountLimit)
            options["expire-type"] = expireType.rawValue
        }
        options.entries += extraDiskOptions.entries
        return options
    }
}
