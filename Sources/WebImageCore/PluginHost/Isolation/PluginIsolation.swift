import FoundationEssentials

/// Which plugins run in a worker process of their own, and how the host supervises them.
///
/// An isolated plugin's calls run in a `webimage-plugin-worker` child process that the host
/// starts on first use: a crash or a hang in the plugin becomes a typed error naming the
/// plugin, the call and the signal, the worker is started again for the next call, and a
/// plugin whose worker keeps dying is disabled for the life of the host. Encoded bytes and
/// pixels cross through shared memory: a decoder writes straight into memory the host's
/// ``PixelBuffer`` then uses. Isolation covers coder plugins; plugins with other kinds run
/// in-process. See docs/architecture.md, "Crash isolation".
public struct PluginIsolation: Sendable, Equatable {
    /// Which plugins are isolated.
    public enum Policy: String, Sendable, CaseIterable {
        /// Every plugin runs in-process.
        case none
        /// Plugins outside the trusted set (``PluginSearchPath/trustedDirectories``: by default
        /// only the install folder) run in workers; trusted ones in-process.
        case untrusted
        /// Every coder plugin runs in a worker, trusted ones too.
        case all
    }

    /// The worker executable's file name, looked for where the plugins were installed and
    /// next to the running executable.
    public static let workerExecutableName = "webimage-plugin-worker"
    /// Where `make install` puts the worker relative to the plugins folder
    /// (`<prefix>/lib/webimage/plugins` → `<prefix>/bin`).
    public static let installedWorkerRelativePath = "../../../bin/" + workerExecutableName

    /// Default ``Policy/untrusted``.
    public var policy: Policy
    /// The worker executable; nil (default) = the first of ``workerExecutableCandidates(forPluginsIn:)``
    /// that exists. Host apps that install the worker elsewhere set it.
    public var workerExecutable: String?
    /// How long one call (a probe, a decode, an encode...) may take before its worker is
    /// killed and the call fails with `.timedOut`. Default 30 s.
    public var callTimeout: Duration
    /// How long starting a worker and opening the plugin in it (its entry function) may take.
    /// Default 10 s.
    public var openTimeout: Duration
    /// After this many crashes or timeouts, the plugin is disabled for the life of the host.
    /// Default 3.
    public var maximumFailures: Int

    public init(
        policy: Policy = .untrusted, workerExecutable: String? = nil, callTimeout: Duration = .seconds(30),
        openTimeout: Duration = .seconds(10), maximumFailures: Int = 3
    ) {
        self.policy = policy
        self.workerExecutable = workerExecutable
        self.callTimeout = callTimeout
        self.openTimeout = openTimeout
        self.maximumFailures = maximumFailures
    }

    /// The worker executables tried, in order, for a plugin whose manifest lies in
    /// `pluginsDirectory`: only ``workerExecutable`` when it is set; else the install prefix's
    /// `bin/webimage-plugin-worker` when the folder is `<prefix>/lib/webimage/plugins` (where
    /// `make install` puts both), then the one next to the running executable.
    public func workerExecutableCandidates(forPluginsIn pluginsDirectory: String) -> [String] {
        if let workerExecutable { return [workerExecutable] }
        var candidates: [String] = []
        let folder = URL(fileURLWithPath: pluginsDirectory).standardizedFileURL
        if folder.path.hasSuffix("/" + PluginSearchPath.installedFolder) {
            candidates.append(folder.appendingPathComponent(Self.installedWorkerRelativePath).standardizedFileURL.path)
        }
        let executable = PluginSearchPath.currentExecutablePath() ?? CommandLine.arguments.first ?? ""
        let beside = URL(fileURLWithPath: executable).deletingLastPathComponent()
            .appendingPathComponent(Self.workerExecutableName).path
        if !candidates.contains(beside) { candidates.append(beside) }
        return candidates
    }

    /// Whether `plugin` runs in a worker under this policy (``DiscoveredPlugin/trust`` says
    /// whether it belongs to the trusted set). Only plugins whose one kind is `coder` are
    /// isolated; others run in-process.
    public func isolates(_ plugin: DiscoveredPlugin) -> Bool {
        guard plugin.manifest.kinds == [.coder] else { return false }
        switch policy {
        case .none: return false
        case .untrusted: return plugin.trust != .trusted
        case .all: return true
        }
    }
}

extension Duration {
    /// Whole milliseconds, at least 1 for any positive duration.
    var milliseconds: Int {
        let (seconds, attoseconds) = components
        let value = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int(clamping: value > 0 ? value : (attoseconds > 0 ? 1 : 0))
    }

    /// Seconds for messages, such as `2 s` or `0.5 s`.
    var secondsText: String {
        let value = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
