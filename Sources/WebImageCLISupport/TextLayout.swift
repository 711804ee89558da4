/// Aligned `label: value` lines for text output.
public enum TextLayout {
    /// One line per row, values aligned after the longest label.
    public static func fields(_ rows: [(label: String, value: String)], indent: String = "") -> [String] {
        let width = (rows.map(\.label.count).max() ?? 0) + 2
        return rows.map { row in
            let label = row.label + ":"
            return indent + label + String(repeating: " ", count: width - label.count) + row.value
        }
    }
}
