import Foundation

/// The number of open file descriptors of this process, from /proc/self/fd.
enum OpenFileDescriptors {
    static var count: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
    }
}
