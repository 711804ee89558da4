import ArgumentParser
import WebImageCore

/// Where `fetch`, `get` and `prefetch` may send requests: every host by default (people fetch
/// from their own machines), private addresses refused with `--deny-private`; `file:` URLs
/// only with `--allow-file`.
struct DestinationOptions: ParsableArguments {
    @Flag(
        name: .customLong("deny-private"),
        help:
            "Refuse loopback, private, link-local, unique local, multicast and unspecified addresses (checked on the address connected to, for every redirect)."
    )
    var denyPrivate = false

    @Flag(name: .customLong("allow-file"), help: "Serve file: URLs (regular files only).")
    var allowFile = false

    /// The policy the flags ask for.
    var policy: DestinationPolicy {
        DestinationPolicy(denyPrivateAddresses: denyPrivate, allowFile: allowFile)
    }
}
