/// How urgent a request is, as Nuke's `ImageRequest.Priority`: one type for every stage of the
/// pipeline (the download queue, the decode and transform queues, shared work), which follows
/// the highest priority of the requests that share it. Default ``normal``;
/// ``ImageManagerOptions/lowPriority`` and ``ImageManagerOptions/highPriority`` pick the others,
/// and ``ImageOperation/priority`` changes a running request's.
public enum ImagePriority: Int, Sendable, Comparable, CaseIterable {
    case low = 0
    case normal = 1
    case high = 2

    public static func < (lhs: ImagePriority, rhs: ImagePriority) -> Bool { lhs.rawValue < rhs.rawValue }
}
