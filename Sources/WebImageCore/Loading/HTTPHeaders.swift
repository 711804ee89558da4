/// HTTP header fields in order, with names compared ASCII case-insensitively.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// The fields in the order they were added or received.
    public private(set) var fields: [(name: String, value: String)]

    public init(_ fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of `name`, or nil. Setting a value replaces every field of that name;
    /// setting nil removes them.
    public subscript(name: String) -> String? {
        get { fields.first { Self.same($0.name, name) }?.value }
        set {
            guard let newValue else {
                fields.removeAll { Self.same($0.name, name) }
                return
            }
            if let index = fields.firstIndex(where: { Self.same($0.name, name) }) {
                fields[index].value = newValue
                fields.removeAll { Self.same($0.name, name) && $0.value != newValue }
                if !fields.contains(where: { Self.same($0.name, name) }) { fields.append((name, newValue)) }
            } else {
                fields.append((name, newValue))
            }
        }
    }

    /// Adds a field after the others, keeping fields of the same name.
    public mutating func add(name: String, value: String) {
        fields.append((name, value))
    }

    /// Removes every field.
    public mutating func removeAll() {
        fields.removeAll()
    }

    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// True when `a` and `b` are the same name, ASCII letters compared case-insensitively
    /// (byte by byte over their UTF-8, without the two lowercased copies that `lowercased()`
    /// would allocate).
    static func same(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        if a == b { return true }
        var a = a
        var b = b
        return a.withUTF8 { left in
            b.withUTF8 { right in
                for index in left.indices where asciiLowercase(left[index]) != asciiLowercase(right[index]) {
                    return false
                }
                return true
            }
        }
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
