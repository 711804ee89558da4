/// A failure of the test harness itself (a missing build product, a tool that failed),
/// as opposed to a failed expectation.
public struct HarnessError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
