#if canImport(Glibc)
    import Glibc
#endif

/// How an ``ImageManager`` runs its stages.
public struct ImageManagerConfiguration: Sendable {
    /// Most decodes at once; default the number of cores.
    public var maxConcurrentDecodes = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    /// Most transforms at once; default 2.
    public var maxConcurrentTransforms = 2
    /// Least time between two partial decodes of one progressive download (Nuke 13 also
    /// skips while a partial decode runs); default 0.1 seconds.
    public var progressiveDecodeInterval: Duration = .milliseconds(100)

    public init() {}
}
