import CWebImagePlugin

#if canImport(Glibc)
    import Glibc
#endif

/// Conversions between the loader kind's Swift values and its C structs.
enum LoadRequestMarshalling {
    /// Calls `body` with a `webimage_load_request` for `request`, valid during the call.
    static func withCRequest<Result>(
        _ request: LoadRequest, _ body: (UnsafePointer<webimage_load_request>) -> Result
    ) -> Result {
        var strings: [UnsafeMutablePointer<CChar>] = []
        defer { for string in strings { free(string) } }
        func copy(_ text: String) -> UnsafeMutablePointer<CChar> {
            let pointer = strdup(text)!
            strings.append(pointer)
            return pointer
        }
        let headers = request.headers.map { webimage_load_header(name: copy($0.name), value: copy($0.value)) }
        var flags: UInt32 = 0
        if request.options.contains(.allowInvalidCertificates) { flags |= WEBIMAGE_LOAD_ALLOW_INVALID_CERTIFICATES }
        if request.options.contains(.sendCookies) { flags |= WEBIMAGE_LOAD_SEND_COOKIES }
        if request.options.contains(.allowHTTP2) { flags |= WEBIMAGE_LOAD_ALLOW_HTTP2 }
        var destinationFlags: UInt32 = 0
        if request.destinationPolicy.denyPrivateAddresses { destinationFlags |= WEBIMAGE_DESTINATION_DENY_PRIVATE }
        if request.destinationPolicy.allowFile { destinationFlags |= WEBIMAGE_DESTINATION_ALLOW_FILE }
        let prefixes: [UnsafePointer<CChar>] = request.destinationPolicy.allowedURLPrefixes.map {
            UnsafePointer(copy($0))
        }
        let denied = request.destinationPolicy.deniedAddresses.map(cNetwork)
        let allowed = request.destinationPolicy.allowedNetworks.map(cNetwork)
        return headers.withUnsafeBufferPointer { headerBuffer in
            var cRequest = webimage_load_request(
                struct_size: UInt32(MemoryLayout<webimage_load_request>.size),
                method: request.method == .head ? WEBIMAGE_LOAD_METHOD_HEAD : WEBIMAGE_LOAD_METHOD_GET,
                url: copy(request.url), headers: headerBuffer.baseAddress, header_count: UInt32(headers.count),
                flags: flags, connect_timeout_ms: milliseconds(request.connectTimeout),
                idle_timeout_ms: milliseconds(request.idleTimeout),
                user: request.credential.map { UnsafePointer(copy($0.user)) },
                password: request.credential.map { UnsafePointer(copy($0.password)) },
                max_body_size: request.maxBodySize, range_start: request.rangeStart,
                max_host_connections: request.maxConnectionsPerHost,
                low_speed_bytes_per_second: request.minimumBytesPerSecond,
                max_time_ms: request.maxTransferTime.map(milliseconds) ?? 0, destination_flags: destinationFlags,
                allowed_url_prefixes: nil, denied_networks: nil, allowed_networks: nil,
                allowed_url_prefix_count: UInt32(prefixes.count), denied_network_count: UInt32(denied.count),
                allowed_network_count: UInt32(allowed.count), reserved2: 0)
            return prefixes.withUnsafeBufferPointer { prefixBuffer in
                denied.withUnsafeBufferPointer { deniedBuffer in
                    allowed.withUnsafeBufferPointer { allowedBuffer in
                        cRequest.allowed_url_prefixes = prefixBuffer.baseAddress
                        cRequest.denied_networks = deniedBuffer.baseAddress
                        cRequest.allowed_networks = allowedBuffer.baseAddress
                        return body(&cRequest)
                    }
                }
            }
        }
    }

    /// The C form of `network`.
    static func cNetwork(_ network: IPNetwork) -> webimage_ip_network {
        var result = webimage_ip_network()
        withUnsafeMutableBytes(of: &result.address) { $0.copyBytes(from: network.address) }
        result.ip_version = network.address.count == 4 ? 4 : 6
        result.prefix_length = UInt32(network.prefixLength)
        result.port = UInt32(network.port ?? 0)
        return result
    }

    /// Whole milliseconds, at least 1 for a positive duration, clamped to `UInt32`.
    static func milliseconds(_ duration: Duration) -> UInt32 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 1 }
        let total = seconds.multipliedReportingOverflow(by: 1000)
        let milliseconds = total.overflow ? Int64.max : total.partialValue + attoseconds / 1_000_000_000_000_000
        return UInt32(clamping: max(milliseconds, duration > .zero ? 1 : 0))
    }

    /// `"1.0"`, `"1.1"`, `"2"`, `"3"`, or nil for `WEBIMAGE_HTTP_VERSION_NONE`.
    static func httpVersion(_ value: UInt32) -> String? {
        switch value {
        case WEBIMAGE_HTTP_VERSION_1_0: "1.0"
        case WEBIMAGE_HTTP_VERSION_1_1: "1.1"
        case WEBIMAGE_HTTP_VERSION_2: "2"
        case WEBIMAGE_HTTP_VERSION_3: "3"
        default: nil
        }
    }

    static func metrics(_ metrics: webimage_load_metrics) -> LoadMetrics {
        var result = LoadMetrics(httpVersion: httpVersion(metrics.http_version))
        result.dns = .microseconds(metrics.dns_us)
        result.connect = .microseconds(metrics.connect_us)
        result.tls = .microseconds(metrics.tls_us)
        result.firstByte = .microseconds(metrics.first_byte_us)
        result.total = .microseconds(metrics.total_us)
        result.bytesReceived = metrics.bytes_received
        result.redirectCount = Int(metrics.redirect_count)
        return result
    }
}
