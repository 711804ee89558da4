import Foundation
import Testing
import WebImageTestSupport

/// What the bundled plugin libraries link (issue #24): a cache or loader library links the C
/// ABI and `WebImagePluginDescriptor`, not the core, so the core's symbols are not in it.
@Suite struct PluginLinkageTests {
    /// The libraries whose tables are written in C.
    static let cTableLibraries = [
        "libWebImageMemory.so", "libWebImageDisk.so", "libWebImageRedis.so", "libWebImageCurl.so",
    ]

    /// The type descriptor of the core's `PluginHost`, present in every library that links the core.
    static let coreSymbol = "$s12WebImageCore10PluginHostCMn"

    @Test(arguments: cTableLibraries) func cTableLibraryDoesNotLinkTheCore(library: String) throws {
        let path = try BuildProducts.library(library).path
        // Never closed: the Swift runtime keeps the library's type records, as the host does.
        let handle = try #require(dlopen(path, RTLD_NOW | RTLD_LOCAL))
        #expect(dlsym(handle, "webimage_plugin_entry") != nil)
        #expect(dlsym(handle, Self.coreSymbol) == nil)
    }
}
