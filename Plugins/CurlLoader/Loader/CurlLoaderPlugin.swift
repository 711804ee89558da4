import CCurlShim
import CWebImagePlugin

/// The curl loader plugin: libcurl's multi interface on one I/O thread of its own, serving
/// `http`, `https`, `file` and `data` URLs (connect timeout 10 s, idle timeout 15 s as a
/// low-speed limit, at most 6 connections per host, HTTP/2 multiplexing over TLS, at most 10
/// redirects, decoded content encodings, proxies from the environment).
public enum CurlLoaderPlugin {
    /// The manifest name.
    public static let pluginName = "curl"
    public static let pluginVersion = "1.0.0"

    /// The C table the entry target exports; lives for the life of the process.
    public static var table: UnsafePointer<webimage_loader> { curl_shim_loader() }

    /// Transfers started and not yet completed, in this process.
    public static var transfersInFlight: UInt64 { curl_shim_transfers_in_flight() }

    /// Tasks allocated and not yet freed, in this process.
    public static var liveTasks: UInt64 { curl_shim_live_tasks() }
}
