import ArgumentParser
import WebImageCore

/// Where `fetch`, `get` and `prefetch` may send requests: every host by default (people fetch
/// from their own machines), private addresses refused with `--deny-private`; `file:` URLs
/// only with `--allow-file`; `--allow-source` limits the URLs and redirect targets to prefixes,
/// `--allow-network` and `--deny-address` adjust which addresses may be connected to.
package struct DestinationOptions: ParsableArguments {
    package init() {}

    @Flag(
        name: .customLong("deny-private"),
        help:
            "Refuse loopback, private, link-local, unique local, multicast and unspecified addresses (checked on the address connected to, for every redirect)."
    )
    package var denyPrivate = false

    @Flag(name: .customLong("allow-file"), help: "Serve file: URLs (regular files only).")
    package var allowFile = false

    @Option(
        name: .customLong("allow-source"),
        help: ArgumentHelp(
            "Load only URLs under this prefix, and follow only redirects to them (repeatable; '*' labels in the host: https://*.example.com/).",
            valueName: "prefix"))
    package var allowedSources: [String] = []

    @Option(
        name: .customLong("allow-network"),
        help: ArgumentHelp(
            "With --deny-private, still reach this network (repeatable; ADDRESS[/BITS][:PORT], [IPv6]:PORT).",
            valueName: "network"),
        transform: { try IPNetwork($0) })
    package var allowedNetworks: [IPNetwork] = []

    @Option(
        name: .customLong("deny-address"),
        help: ArgumentHelp(
            "Never connect to this network, with or without --deny-private (repeatable; ADDRESS[/BITS][:PORT], [IPv6]:PORT).",
            valueName: "network"),
        transform: { try IPNetwork($0) })
    package var deniedAddresses: [IPNetwork] = []

    /// The policy the flags ask for.
    package var policy: DestinationPolicy {
        DestinationPolicy(
            denyPrivateAddresses: denyPrivate, allowFile: allowFile, allowedURLPrefixes: allowedSources,
            deniedAddresses: deniedAddresses, allowedNetworks: allowedNetworks)
    }
}
