/// How numbers appear in transformer keys: whole numbers without a fraction (`45`, `-3`),
/// others in Swift's shortest form that reads back to the same value (`0.5`, `12.25`).
public enum TransformerKeyNumber {
    public static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
