import Foundation

/// Figures as people read them: three significant digits and a unit that fits.
enum Format {
    static func duration(_ duration: Duration) -> String {
        let seconds = duration.seconds
        switch abs(seconds) {
        case 120...: return String(format: "%.0f min %02.0f s", (seconds / 60).rounded(.down), seconds.truncatingRemainder(dividingBy: 60))
        case 1...: return significant(seconds) + " s"
        case 1e-3...: return significant(seconds * 1e3) + " ms"
        default: return significant(seconds * 1e6) + " µs"
        }
    }

    static func bytes(_ bytes: Int) -> String {
        let mebibytes = Double(bytes) / 1_048_576
        if mebibytes >= 1024 { return significant(mebibytes / 1024) + " GiB" }
        return mebibytes >= 1 ? significant(mebibytes) + " MiB" : significant(Double(bytes) / 1024) + " KiB"
    }

    static func percent(_ fraction: Double) -> String {
        significant(fraction * 100) + " %"
    }

    static func count(_ count: Int) -> String {
        count.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
    }

    /// Three significant digits, no exponent: 0.0123, 1.23, 12.3, 123, 1234.
    static func significant(_ value: Double) -> String {
        let magnitude = abs(value)
        let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : magnitude >= 0.1 ? 3 : 4
        return String(format: "%.\(decimals)f", value)
    }
}

/// A plain-text table: a header row, a rule, then rows; the first column left-aligned, the
/// others right-aligned, so units line up.
struct Table {
    var headers: [[String]]
    var rows: [[String]] = []

    /// `headers`: one array per column, top line first (columns with fewer lines are padded).
    init(_ headers: [[String]]) { self.headers = headers }

    mutating func add(_ row: [String]) { rows.append(row) }

    func render() -> String {
        let headerLines = headers.map(\.count).max() ?? 0
        let paddedHeaders = headers.map { Array(repeating: "", count: headerLines - $0.count) + $0 }
        var widths = paddedHeaders.map { $0.map(\.count).max() ?? 0 }
        for row in rows {
            for (column, cell) in row.enumerated() where column < widths.count { widths[column] = max(widths[column], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + pad : pad + cell
            }.joined(separator: "   ")
        }
        var out: [String] = []
        for index in 0..<headerLines { out.append(line(paddedHeaders.map { $0[index] })) }
        out.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "   "))
        for row in rows { out.append(line(row)) }
        return out.map { "  " + $0 }.joined(separator: "\n")
    }
}
