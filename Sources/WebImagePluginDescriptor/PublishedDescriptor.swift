import CWebImagePlugin
import Synchronization

/// The one descriptor of this library, kept for the life of the process.
enum PublishedDescriptor {
    /// The descriptor's address; the memory it points at is never freed or changed once published.
    private static let address = Mutex<UInt?>(nil)

    /// The published descriptor, built by `build` on the first call only.
    static func publish(
        _ build: () -> UnsafePointer<webimage_plugin_descriptor>
    ) -> UnsafeRawPointer {
        let published = address.withLock { address in
            if let address { return address }
            let built = UInt(bitPattern: build())
            address = built
            return built
        }
        return UnsafeRawPointer(bitPattern: published)!
    }
}
