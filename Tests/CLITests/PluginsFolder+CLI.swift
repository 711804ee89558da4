import WebImageTestSupport

extension PluginsFolder {
    /// A new folder with every bundled plugin.
    static func make() throws -> PluginsFolder {
        let folder = try PluginsFolder()
        try folder.addAllBundled()
        return folder
    }

    /// A new folder with a plugin `junk` whose manifest names a text file as its library.
    static func makeWithGarbageLibrary() throws -> PluginsFolder {
        let folder = try PluginsFolder()
        try folder.write(
            "junk.json",
            """
            {"name": "junk", "version": "0.1.0", "abi_version": 1, "library": "libJunk.so", "kinds": ["coder"],
             "formats": [{"name": "junk", "mime_types": ["image/x-junk"], "extensions": ["junk"],
                          "signatures": ["4a554e4b"], "capabilities": ["decode"]}]}
            """)
        try folder.write("libJunk.so", "this is not a shared object\n")
        return folder
    }
}
