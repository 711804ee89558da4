#if canImport(Glibc)
    import Glibc
#endif

/// A number that `String(printf:)` can put into its text: C's `printf` reads it from its
/// argument list by the format's conversion (`%d`/`%ld`/`%x` for integers, `%f`/`%g` for
/// `Double`). Text is not one: C's `%s` would read a Swift `String` as a pointer.
package protocol PrintfNumber: CVarArg {}

extension Int: PrintfNumber {}
extension Int32: PrintfNumber {}
extension UInt: PrintfNumber {}
extension UInt8: PrintfNumber {}
extension UInt32: PrintfNumber {}
extension Double: PrintfNumber {}

extension String {
    /// `format` with `numbers` put in as C's `printf` does (`%.1f`, `%02ld`, `%g`, `%02x`):
    /// Foundation's `String(format:)`, which `FoundationEssentials` does not have. Text goes
    /// into `format` itself (escape its `%` as `%%`). The result is cut at 4,095 bytes.
    package init(printf format: String, _ numbers: any PrintfNumber...) {
        self = withVaList(numbers) { list in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 4096) { buffer in
                _ = vsnprintf(buffer.baseAddress!, buffer.count, format, list)
                return String(cString: buffer.baseAddress!)
            }
        }
    }
}
