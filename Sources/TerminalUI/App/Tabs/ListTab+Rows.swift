import DocumentStore
import ShelfModels
import TerminalKit

/// A tab's rows as its presentation draws them, whichever source they come from: so a row
/// that does not decode says why in a list held whole and in a window alike.
extension ListTab {
    func snapshot(at index: Int) -> DocumentSnapshot? { row(at: index)?.snapshot }

    func tableRow(at index: Int, mode: ColorMode) -> TabRow {
        guard let row = row(at: index) else { return .unread }
        if let model = row.model {
            return .cells(shownColumns.map { column in
                TableCell(prefix: column.prefix.map { [$0(model, mode)] } ?? [], text: column.text(model, row.snapshot), style: column.style)
            })
        }
        let name = name(of: row.snapshot) ?? row.id
        let reason = row.snapshot.readError?.reasonWithoutPath ?? row.problem?.reason ?? "does not decode"
        return .broken(ListRow([Span(name), Span("  " + reason, style: Style(dim: true))], marker: "!"))
    }

    func name(at index: Int) -> String? { row(at: index).flatMap { name(of: $0.snapshot) } }

    /// What names a document to a person: the first of the presentation's name fields it has.
    private func name(of snapshot: DocumentSnapshot) -> String? {
        presentation.nameFields.lazy.compactMap { snapshot.get($0) as? String }.first
    }

    func detail(at index: Int, mode: ColorMode) -> TabDetail {
        guard let row = row(at: index) else { return TabDetail(swatch: nil, lines: []) }
        guard let model = row.model else {
            var lines = [DetailLine("Problem", row.problem?.message ?? "unknown", valueStyle: Style(bold: true))]
            if row.snapshot.readError == nil { lines += RawValue.lines(for: row.snapshot, except: [], title: "Fields") }
            return TabDetail(swatch: nil, lines: lines)
        }
        return TabDetail(swatch: presentation.swatch(model), lines: presentation.detail(model, row.snapshot, mode))
    }

    func form(editing index: Int?) -> FormSpec { presentation.form(index.flatMap(snapshot(at:))) }
}
