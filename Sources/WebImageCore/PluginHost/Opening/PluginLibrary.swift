import CWebImagePlugin
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The `dlopen` side of the host: opens a plugin's shared object, calls its entry function
/// and checks the descriptor against the manifest, then lets each kind's adapter wrap its table.
///
/// Libraries are opened with `RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE` and never closed:
/// a Swift plugin's runtime metadata must outlive every object it made.
public enum PluginLibrary {
    /// ABI versions this host reads.
    public static let supportedABIVersions: ClosedRange<UInt32> = 1...WEBIMAGE_PLUGIN_ABI_VERSION

    /// Opens `plugin` and checks it. Runs the plugin's entry function: call it with no lock held.
    /// - Parameters:
    ///   - host: the services the plugin is given; default ``HostServices/host``.
    ///   - adapters: the kinds this host implements; default ``PluginKindAdapters/standard``.
    /// - Throws: ``PluginFault`` naming the file and the cause.
    public static func open(
        _ plugin: DiscoveredPlugin, host: UnsafePointer<webimage_host> = HostServices.host,
        adapters: [any PluginKindAdapter.Type] = PluginKindAdapters.standard
    ) throws(PluginFault) -> OpenedPlugin {
        let path = plugin.libraryPath
        func fault(_ reason: PluginFault.Reason, _ detail: String) -> PluginFault {
            PluginFault(reason, file: path, plugin: plugin.name, detail: detail)
        }
        guard supportedABIVersions.contains(plugin.manifest.abiVersion) else {
            throw PluginFault(
                .unsupportedABIVersion, file: plugin.manifestPath, plugin: plugin.name,
                detail:
                    "the manifest declares ABI version \(plugin.manifest.abiVersion); this host supports \(describe(supportedABIVersions))"
            )
        }
        try checkIsSharedObject(path, fault: fault)
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            let message = dlerror().map { String(cString: $0) } ?? "unknown dlopen error"
            if let range = message.firstRange(of: "undefined symbol: ") {
                throw fault(
                    .unresolvedSymbol, "needs '\(message[range.upperBound...])', which nothing provides (\(message))")
            }
            throw fault(.loadFailed, message)
        }
        guard let symbol = dlsym(handle, WEBIMAGE_PLUGIN_ENTRY_NAME) else {
            throw fault(.entrySymbolMissing, "the library does not export '\(WEBIMAGE_PLUGIN_ENTRY_NAME)'")
        }
        let entry = unsafeBitCast(symbol, to: webimage_plugin_entry_fn.self)
        guard let descriptorPointer = entry(host) else {
            throw fault(.entryFailed, "'\(WEBIMAGE_PLUGIN_ENTRY_NAME)' returned NULL")
        }
        return try check(descriptorPointer, against: plugin, adapters: adapters, fault: fault)
    }

    /// Checks a descriptor against the manifest and wraps it.
    static func check(
        _ descriptorPointer: UnsafePointer<webimage_plugin_descriptor>, against plugin: DiscoveredPlugin,
        adapters adapterTypes: [any PluginKindAdapter.Type], fault: (PluginFault.Reason, String) -> PluginFault
    ) throws(PluginFault) -> OpenedPlugin {
        let abiVersion = UnsafeRawPointer(descriptorPointer).load(as: UInt32.self)
        guard supportedABIVersions.contains(abiVersion) else {
            throw fault(
                .unsupportedABIVersion,
                "the descriptor declares ABI version \(abiVersion); this host supports \(describe(supportedABIVersions))"
            )
        }
        let sizeOffset = MemoryLayout<webimage_plugin_descriptor>.offset(of: \.struct_size)!
        let minimumSize = MemoryLayout<webimage_plugin_descriptor>.offset(of: \.loader)!
        let declaredSize = ABIStruct.declaredSize(descriptorPointer, sizeOffset: sizeOffset)
        guard declaredSize >= minimumSize else {
            throw fault(
                .descriptorMismatch,
                "the descriptor is \(declaredSize) bytes; ABI \(abiVersion) needs at least \(minimumSize)")
        }
        let descriptor = ABIStruct.read(descriptorPointer, sizeOffset: sizeOffset)
        let manifest = plugin.manifest
        let name = String(cString: descriptor.name)
        let version = String(cString: descriptor.version)
        guard name == manifest.name else {
            throw fault(.descriptorMismatch, "the library calls itself '\(name)', the manifest '\(manifest.name)'")
        }
        guard version == manifest.version else {
            throw fault(.descriptorMismatch, "the library has version \(version), the manifest \(manifest.version)")
        }
        guard abiVersion == manifest.abiVersion else {
            throw fault(
                .descriptorMismatch, "the library has ABI version \(abiVersion), the manifest \(manifest.abiVersion)")
        }
        let kinds = PluginKind.kinds(in: descriptor.kinds)
        guard Set(kinds) == Set(manifest.kinds) else {
            throw fault(
                .descriptorMismatch,
                "the library provides [\(kinds.map(\.rawValue).joined(separator: ", "))], the manifest lists [\(manifest.kinds.map(\.rawValue).joined(separator: ", "))]"
            )
        }
        var adapters: [any PluginKindAdapter] = []
        for kind in kinds {
            guard let adapterType = adapterTypes.first(where: { $0.kind == kind }) else { continue }
            adapters.append(try adapterType.init(descriptor: descriptor, plugin: plugin))
        }
        return OpenedPlugin(
            plugin: plugin, descriptor: descriptorPointer, abiVersion: abiVersion, kinds: kinds, adapters: adapters)
    }

    private static func checkIsSharedObject(
        _ path: String, fault: (PluginFault.Reason, String) -> PluginFault
    ) throws(PluginFault) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw fault(.libraryMissing, "the file does not exist")
        }
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw fault(.loadFailed, "the file cannot be read")
        }
        defer { Glibc.close(descriptor) }
        var header = [UInt8](repeating: 0, count: 18)
        let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 18, 0) }
        header.removeSubrange(max(0, count)...)
        guard header.count >= 18, header.starts(with: [0x7F, 0x45, 0x4C, 0x46]) else {
            throw fault(
                .notSharedObject,
                "the file is not an ELF object (\(header.count < 4 ? "too short" : "wrong magic bytes"))")
        }
        let elfType = UInt16(header[16]) | UInt16(header[17]) << 8
        guard elfType == 3 else {
            throw fault(.notSharedObject, "the file is an ELF object of type \(elfType), not a shared object (3)")
        }
    }

    private static func describe(_ range: ClosedRange<UInt32>) -> String {
        range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)–\(range.upperBound)"
    }
}
