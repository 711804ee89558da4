/// One way a coder broke its contract on one fixture.
public struct ConformanceFailure: Sendable, Equatable, Codable, CustomStringConvertible {
    public var check: ConformanceCheck
    /// The fixture's name.
    public var fixture: String
    /// What happened, with the offset, size or error involved.
    public var message: String

    public init(check: ConformanceCheck, fixture: String, message: String) {
        self.check = check
        self.fixture = fixture
        self.message = message
    }

    public var description: String { "\(fixture): \(check.rawValue): \(message)" }
}
