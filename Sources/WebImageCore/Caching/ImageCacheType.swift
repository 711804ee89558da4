/// Where an image is stored or was found (SDWebImage's `SDImageCacheType`).
public enum ImageCacheType: Sendable, Equatable {
    /// Nowhere: for a result (``ImageResult/cacheType``), the image was downloaded, which
    /// `webimage get` reports as "from the network" (`cache_type` `none` in `--json`), as
    /// SDWebImage names it; storing with `.none` stores nothing.
    case none
    case memory
    case disk
    /// Memory and disk.
    case all

    var includesMemory: Bool { self == .memory || self == .all }
    var includesDisk: Bool { self == .disk || self == .all }
}
