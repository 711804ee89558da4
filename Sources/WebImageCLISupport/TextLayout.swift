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

    /// One line per row, each column as wide as its widest cell and two spaces apart; the
    /// columns in `rightAligned` (by index) are aligned right, the others left. The last
    /// column is not padded.
    public static func columns(_ rows: [[String]], rightAligned: Set<Int> = []) -> [String] {
        let count = rows.map(\.count).max() ?? 0
        let widths = (0..<count).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                if rightAligned.contains(column) { return padding + cell }
                return column == row.count - 1 ? cell : cell + padding
            }.joined(separator: "  ")
        }
    }
}
