import Foundation
import WebImageCore

#if canImport(Glibc)
    import Glibc
#endif

/// A network namespace a test creates (as root, with `ip netns add`) and removes when the last
/// reference goes away, so tests can run hosts of their own on addresses of any class
/// (private, link-local, unique local, a documentation range standing for "public") that no
/// packet leaves: a namespace starts with only a loopback device and no routes.
///
/// Names are `webimage-test-<pid>-<n>`, unique per test process; namespaces left by test
/// processes that died (a crash, SIGKILL) are removed by the next one.
public final class NetworkNamespace: Sendable {
    public let name: String

    /// The `ip` tool of iproute2.
    public static let ipTool = "/usr/sbin/ip"
    private static let prefix = "webimage-test-"
    private static let counter = TrackedMutex(0)

    /// Creates a namespace with its loopback device up.
    /// - Throws: ``HarnessError`` when `ip` fails (not root, no iproute2).
    public init() throws {
        Self.removeStale()
        let number = Self.counter.withLock { counter in
            counter += 1
            return counter
        }
        name = "\(Self.prefix)\(getpid())-\(number)"
        try Self.ip(["netns", "add", name])
        do {
            try run(["link", "set", "lo", "up"])
        } catch {
            remove()
            throw error
        }
    }

    deinit { remove() }

    /// Deletes the namespace (its devices and addresses with it) and its `/etc/netns` folder.
    public func remove() {
        _ = try? Self.ip(["netns", "delete", name])
        try? FileManager.default.removeItem(atPath: resolverFolder)
    }

    /// Runs `ip -n <name> arguments...`.
    public func run(_ arguments: [String]) throws {
        try Self.ip(["-n", name] + arguments)
    }

    /// The command prefix that runs a program inside the namespace: `ip netns exec <name>`.
    public var execPrefix: [String] { [Self.ipTool, "netns", "exec", name] }

    /// Joins this namespace to `other` with a veth pair, `device` here and `otherDevice` there,
    /// both up.
    public func link(_ device: String, to other: NetworkNamespace, as otherDevice: String) throws {
        try run(["link", "add", device, "type", "veth", "peer", "name", otherDevice, "netns", other.name])
        try run(["link", "set", device, "up"])
        try other.run(["link", "set", otherDevice, "up"])
    }

    /// Adds `address` (with its prefix length, `10.0.0.1/24` or `fd00::1/64`) to `device`;
    /// IPv6 addresses skip duplicate address detection, so they are usable at once.
    public func addAddress(_ address: String, to device: String) throws {
        try run(["address", "add", address, "dev", device] + (address.contains(":") ? ["nodad"] : []))
    }

    /// Routes `prefix` (`10.201.0.0/16`, `fd00:77::/64`) out of `device` with no gateway.
    public func addRoute(_ prefix: String, via device: String) throws {
        try run(["route", "add", prefix, "dev", device])
    }

    /// Makes programs run with ``execPrefix`` resolve names through `nameserver` only
    /// (`/etc/netns/<name>/resolv.conf`, which `ip netns exec` mounts over `/etc/resolv.conf`).
    public func useNameServer(_ nameserver: String) throws {
        try FileManager.default.createDirectory(atPath: resolverFolder, withIntermediateDirectories: true)
        try Data("nameserver \(nameserver)\noptions timeout:2 attempts:1\n".utf8).write(
            to: URL(fileURLWithPath: resolverFolder + "/resolv.conf"))
    }

    /// Makes programs run with ``execPrefix`` look up `names` (name to address) in their hosts
    /// file, besides `localhost` (`/etc/netns/<name>/hosts`, mounted over `/etc/hosts`).
    public func useHostsFile(_ names: [String: String]) throws {
        try FileManager.default.createDirectory(atPath: resolverFolder, withIntermediateDirectories: true)
        let lines = ["127.0.0.1 localhost", "::1 localhost"] + names.sorted { $0.key < $1.key }.map { "\($1) \($0)" }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(
            to: URL(fileURLWithPath: resolverFolder + "/hosts"))
    }

    /// Runs `body` on a thread of its own that has entered the namespace: sockets it creates
    /// belong to the namespace for their whole life. The thread ends after `body`.
    public func inside<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) throws -> Value {
        let path = "/var/run/netns/\(name)"
        let result = TrackedMutex<Result<Value, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0, Self.setns(descriptor, Self.newNetworkFlag) == 0 else {
                let reason = String(cString: strerror(errno))
                if descriptor >= 0 { close(descriptor) }
                result.withLock { $0 = .failure(HarnessError("cannot enter \(path): \(reason)")) }
                return
            }
            close(descriptor)
            let value = Result { try body() }
            result.withLock { $0 = value }
        }
        thread.start()
        done.wait()
        return try result.withLock { $0! }.get()
    }

    /// `CLONE_NEWNET`, which Glibc's Swift module does not export.
    private static let newNetworkFlag: Int32 = 0x4000_0000

    /// glibc's `setns(2)`, which its Swift module does not export either.
    private static let setns = unsafeBitCast(
        dlsym(nil, "setns"), to: (@convention(c) (Int32, Int32) -> Int32).self)

    private var resolverFolder: String { "/etc/netns/\(name)" }

    /// Runs `ip arguments...`; throws with its standard error when it fails.
    @discardableResult
    public static func ip(_ arguments: [String]) throws -> String {
        expectOwnThreadWhenBlocking("running ip")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ipTool)
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        do {
            try process.run()
        } catch {
            throw HarnessError("cannot run \(ipTool): \(error)")
        }
        let text = output.fileHandleForReading.readDataToEndOfFile()
        let reason = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw HarnessError(
                "ip \(arguments.joined(separator: " ")) failed: \(String(decoding: reason, as: UTF8.self))")
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Deletes namespaces of this helper whose test process no longer runs.
    private static func removeStale() {
        guard let list = try? ip(["netns", "list"]) else { return }
        for line in list.split(separator: "\n") {
            let name = String(line.split(separator: " ")[0])
            guard name.hasPrefix(prefix) else { continue }
            let fields = name.dropFirst(prefix.count).split(separator: "-")
            guard let pid = fields.first.flatMap({ Int32($0) }), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            _ = try? ip(["netns", "delete", name])
            try? FileManager.default.removeItem(atPath: "/etc/netns/\(name)")
        }
    }
}
