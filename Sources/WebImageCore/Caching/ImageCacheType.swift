/// Where an image is stored or was found (SDWebImage's `SDImageCacheType`).
public enum ImageCacheType: Sendable, Equatable {
    /// Nowhere (storing with `.none` stores nothing).
    case none
    case memory
    case disk
    /// Memory and disk.
    case all

    var includesMemory: Bool { self == .memory || self == .all }
    var includesDisk: Bool { self == .disk || self == .all }
}
