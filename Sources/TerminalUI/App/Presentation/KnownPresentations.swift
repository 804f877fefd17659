import DocumentStore
import Foundation
import ShelfModels
import TerminalKit

/// How each collection of the guide's sample is listed, detailed and edited.
@MainActor
enum KnownPresentations {
    static func text(_ snapshot: DocumentSnapshot?, _ field: String) -> String {
        snapshot?.get(field).map(RawValue.text) ?? ""
    }

    static let dim = Style(dim: true)

    // MARK: Books

    static func books(_ model: BooksViewModel) -> Presentation<ShelfBook> {
        Presentation(
            title: "Books",
            columns: [
                Column(ColumnSpec("Title", minWidth: 14, weight: 3)) { $0.title },
                Column(ColumnSpec("Author", minWidth: 10, weight: 2), style: dim) { $0.author },
                Column(ColumnSpec("Pages", minWidth: 5, alignment: .right), field: "numberOfPages", style: dim) { "\($0.numberOfPages)" },
                Column(ColumnSpec("Genres", minWidth: 10, weight: 1), style: dim) { ($0.genres ?? []).joined(separator: ", ") },
                Column(ColumnSpec("Tags", minWidth: 12, weight: 1), style: dim, stored: StoredCell.field(["tags"], StoredCell.tags)) { book in
                    (book.tags ?? []).map { "\($0.title) \($0.color.hex)" }.joined(separator: ", ")
                },
            ],
            nameFields: ["title"],
            detail: { book, snapshot, mode in
                var lines = [
                    DetailLine("Title", book.title, valueStyle: Style(bold: true)),
                    DetailLine("Author", book.author),
                    DetailLine("Pages", "\(book.numberOfPages)"),
                ]
                if let genres = book.genres { lines.append(DetailLine("Genres", genres.joined(separator: ", "))) }
                for (index, tag) in (book.tags ?? []).enumerated() {
                    lines.append(DetailLine(index == 0 ? "Tags" : "", " \(tag.title) \(tag.color.hex) ", valueStyle: swatchStyle(tag.color, mode)))
                }
                if let cover = book.cover {
                    lines += [DetailLine("Cover (small)", cover.small.absoluteString),
                              DetailLine("Cover (medium)", cover.medium.absoluteString),
                              DetailLine("Cover (large)", cover.large.absoluteString)]
                }
                if let color = book.color { lines.append(DetailLine("Color", " \(color.hex) ", valueStyle: swatchStyle(color, mode))) }
                lines += RawValue.lines(for: snapshot, except: ShelfBook.knownFields, title: "Other fields")
                return lines
            },
            form: { snapshot in
                let hadOptional = ["genres", "tags", "cover", "color"].filter { snapshot?.get($0) != nil }
                let tags = (snapshot?.get("tags") as? [Any])?.compactMap { item -> String? in
                    guard let map = item as? [String: Any] else { return nil }
                    return "\(map["title"].map(RawValue.text) ?? "") \(map["color"].map(RawValue.text) ?? "")"
                }.joined(separator: "; ") ?? ""
                let genres = (snapshot?.get("genres") as? [Any])?.map(RawValue.text).joined(separator: ", ") ?? ""
                return FormSpec(
                    title: snapshot.map { "Edit \($0.reference.path)" } ?? "New book",
                    fields: [
                        .init(label: "Title", text: text(snapshot, "title"), rule: .text),
                        .init(label: "Author", text: text(snapshot, "author"), rule: .text),
                        .init(label: "Pages", text: text(snapshot, "numberOfPages"), rule: .wholeNumber),
                        .init(label: "Genres", text: genres, rule: .list),
                        .init(label: "Tags", text: tags, rule: .tags),
                        .init(label: "Cover small", text: text(snapshot, "cover.small"), rule: .url),
                        .init(label: "Cover medium", text: text(snapshot, "cover.medium"), rule: .url),
                        .init(label: "Cover large", text: text(snapshot, "cover.large"), rule: .url),
                        .init(label: "Color", text: text(snapshot, "color"), rule: .hexColor(optional: true)),
                    ],
                    save: { values in
                        let urls = values[5...7].map(FieldParsing.url)
                        let givenURLs = values[5...7].filter { !$0.trimmed.isEmpty }.count
                        guard givenURLs == 0 || givenURLs == 3 else { throw FormError("give all three cover URLs, or none") }
                        let genres = FieldParsing.list(values[3])
                        let tags = (try? FieldParsing.tags(values[4]).get()) ?? []
                        let book = ShelfBook(
                            title: values[0].trimmed, numberOfPages: Int(values[2].trimmed)!, author: values[1].trimmed,
                            genres: genres.isEmpty && !hadOptional.contains("genres") ? nil : genres,
                            tags: tags.isEmpty && !hadOptional.contains("tags") ? nil : tags,
                            cover: givenURLs == 3 ? CoverImages(small: urls[0]!, medium: urls[1]!, large: urls[2]!) : nil,
                            color: values[8].trimmed.isEmpty ? nil : try? Color(hex: values[8]))
                        let cleared = (givenURLs == 0 ? ["cover"] : []) + (values[8].trimmed.isEmpty ? ["color"] : [])
                        return try .model(book, over: snapshot, in: model.live.collection, removing: cleared.filter(hadOptional.contains))
                    })
            })
    }

    // MARK: Colors

    static func colors(_ model: MappingColorsViewModel) -> Presentation<ColorEntry> {
        Presentation(
            title: "Colors",
            columns: [
                // The swatch leads the name's cell: drawn, never searched or highlighted.
                Column(ColumnSpec("Name", minWidth: 14, weight: 1),
                       prefix: { entry, mode in Span("    ", style: listSwatchStyle(entry.color, mode)) }) { " " + $0.name },
                Column(ColumnSpec("Hex", minWidth: 9), field: "color", style: dim, stored: StoredCell.field(["color"], StoredCell.hex)) { $0.color.hex },
            ],
            nameFields: ["name"],
            detail: { entry, snapshot, mode in
                var lines = [
                    DetailLine("Name", entry.name, valueStyle: Style(bold: true)),
                    DetailLine("Hex", entry.color.hex),
                    DetailLine("RGBA", "\(entry.color.red) \(entry.color.green) \(entry.color.blue) \(entry.color.alpha)"),
                    DetailLine("Palette", paletteDescription(entry.color, mode)),
                    DetailLine("Sample", " The quick brown fox ", valueStyle: sampleStyle(entry.color, mode)),
                ]
                lines += RawValue.lines(for: snapshot, except: ["name", "color"], title: "Other fields")
                return lines
            },
            swatch: { $0.color },
            form: { snapshot in
                FormSpec(
                    title: snapshot.map { "Edit \($0.reference.path)" } ?? "New colour",
                    fields: [
                        .init(label: "Name", text: snapshot == nil ? "" : text(snapshot, "name"), rule: .text),
                        .init(label: "Color", text: text(snapshot, "color"), rule: .hexColor(optional: false)),
                    ],
                    save: { values in
                        let entry = ColorEntry(id: snapshot?.documentID, name: values[0].trimmed, color: try Color(hex: values[1]))
                        return try .model(entry, over: snapshot, in: model.live.collection)
                    })
            })
    }

    /// "208 #ff8700" in 256 colours: the index drawn and the colour it really is.
    static func paletteDescription(_ color: Color, _ mode: ColorMode) -> String {
        let rgb = RGBColor(color)
        let opaque = Color(XtermPalette.composite(rgb, over: .black))
        func hex(_ index: Int) -> String {
            let (r, g, b) = XtermPalette.rgb(ofIndex: index)
            return String(format: "#%02x%02x%02x", r, g, b)
        }
        switch mode {
        case .palette256:
            let index = XtermPalette.index256(for: rgb, over: .black)
            return "\(index) \(hex(index))" + (color.isOpaque ? "" : " (over black: \(opaque.hex))")
        case .basic16:
            let index = XtermPalette.nearest16(for: rgb, over: .black)
            return "\(index) \(hex(index)) (16 colours)"
        case .basic8:
            let index = XtermPalette.nearest8(for: rgb, over: .black)
            return "\(index) \(hex(index)) (8 colours)"
        case .none:
            return "none (colour is off)"
        }
    }

    static func swatchStyle(_ color: Color, _ mode: ColorMode) -> Style {
        guard mode.usesColor else { return Style(reverse: true) }
        return Swatch(color: color, mode: mode).fillStyle
    }

    /// A list row's swatch: spaces in reverse video drawn in the colour, so the selected row's
    /// reverse video leaves it as it is (and without colour it is still a visible block).
    static func listSwatchStyle(_ color: Color, _ mode: ColorMode) -> Style {
        guard mode.usesColor else { return Style(reverse: true) }
        return Style(foreground: TerminalColor(color), reverse: true)
    }

    static func sampleStyle(_ color: Color, _ mode: ColorMode) -> Style {
        guard mode.usesColor else { return Style(bold: true, reverse: true) }
        return swatchStyle(color, mode)
    }

    // MARK: Programming languages

    static func languages(_ model: CustomizeMappingViewModel) -> Presentation<ProgrammingLanguage> {
        Presentation(
            title: "Languages",
            columns: [
                Column(ColumnSpec("Name", minWidth: 10, weight: 1), field: "language_name") { $0.name },
                Column(ColumnSpec("Year", minWidth: 5, alignment: .right), style: dim, stored: StoredCell.field(["year"], StoredCell.year)) {
                    year($0.year)
                },
            ],
            nameFields: ["language_name", "name"],
            detail: { language, snapshot, _ in
                [DetailLine("Name", language.name, valueStyle: Style(bold: true)),
                 DetailLine("First appeared", day(language.year))]
                    + RawValue.lines(for: snapshot, except: ["language_name", "year"], title: "Other fields")
            },
            form: { snapshot in
                let name = text(snapshot, "language_name").isEmpty ? text(snapshot, "name") : text(snapshot, "language_name")
                let year = RawValue.timestamp(snapshot?.get("year")).map { day($0.dateValue()) } ?? text(snapshot, "year")
                return FormSpec(
                    title: snapshot.map { "Edit \($0.reference.path)" } ?? "New language",
                    fields: [.init(label: "Name", text: name, rule: .text), .init(label: "Year", text: year, rule: .date)],
                    save: { values in
                        let language = ProgrammingLanguage(name: values[0].trimmed, year: FieldParsing.date(values[1])!)
                        return try .model(language, over: snapshot, in: model.live.collection)
                    })
            })
    }

    static func year(_ date: Date) -> String { String(Timestamp(date: date).rfc3339.prefix(4)) }
    static func day(_ date: Date) -> String { String(Timestamp(date: date).rfc3339.prefix(10)) }

    // MARK: Offices

    static func offices(_ model: MappingGeoPointsViewModel) -> Presentation<Office> {
        Presentation(
            title: "Offices",
            columns: [
                Column(ColumnSpec("Name", minWidth: 10, weight: 1)) { $0.name },
                Column(ColumnSpec("Latitude", minWidth: 10, alignment: .right), field: "location", style: dim,
                       stored: StoredCell.field(["location"]) { StoredCell.coordinate($0, "latitude") }) { "\($0.location.latitude)" },
                Column(ColumnSpec("Longitude", minWidth: 11, alignment: .right), field: "location", style: dim,
                       stored: StoredCell.field(["location"]) { StoredCell.coordinate($0, "longitude") }) { "\($0.location.longitude)" },
            ],
            nameFields: ["name"],
            detail: { office, snapshot, _ in
                let point = office.location
                return [DetailLine("Name", office.name, valueStyle: Style(bold: true)),
                        DetailLine("Latitude", "\(point.latitude)"),
                        DetailLine("Longitude", "\(point.longitude)"),
                        DetailLine("Map", "https://www.openstreetmap.org/?mlat=\(point.latitude)&mlon=\(point.longitude)#map=16/\(point.latitude)/\(point.longitude)")]
                    + RawValue.lines(for: snapshot, except: ["name", "location"], title: "Other fields")
            },
            form: { snapshot in
                // A GeoPoint once Shelf saved it; a map of latitude and longitude as written by hand.
                let point = RawValue.geoPoint(snapshot?.get("location"))
                return FormSpec(
                    title: snapshot.map { "Edit \($0.reference.path)" } ?? "New office",
                    fields: [.init(label: "Name", text: text(snapshot, "name"), rule: .text),
                             .init(label: "Latitude", text: point.map { "\($0.latitude)" } ?? text(snapshot, "location.latitude"),
                                   rule: .coordinate("latitude", limit: 90)),
                             .init(label: "Longitude", text: point.map { "\($0.longitude)" } ?? text(snapshot, "location.longitude"),
                                   rule: .coordinate("longitude", limit: 180))],
                    save: { values in
                        let office = Office(name: values[0].trimmed,
                                            location: GeoPoint(latitude: Double(values[1].trimmed)!, longitude: Double(values[2].trimmed)!))
                        return try .model(office, over: snapshot, in: model.live.collection)
                    })
            })
    }

    // MARK: Articles

    static func articles(_ model: MappingEnumsViewModel) -> Presentation<Article> {
        let statuses = Article.Status.allCases.map(\.rawValue)
        return Presentation(
            title: "Articles",
            columns: [
                Column(ColumnSpec("Title", minWidth: 10, weight: 1)) { $0.title },
                Column(ColumnSpec("Status", minWidth: 9), style: dim) { $0.status.rawValue },
            ],
            nameFields: ["title"],
            detail: { article, snapshot, _ in
                [DetailLine("Title", article.title, valueStyle: Style(bold: true)),
                 DetailLine("Status", article.status.rawValue)]
                    + RawValue.lines(for: snapshot, except: ["title", "status"], title: "Other fields")
            },
            form: { snapshot in
                let status = snapshot == nil ? "draft" : text(snapshot, "status")
                return FormSpec(
                    title: snapshot.map { "Edit \($0.reference.path)" } ?? "New article",
                    fields: [.init(label: "Title", text: text(snapshot, "title"), rule: .text),
                             .init(label: "Status", text: status, rule: .oneOf(statuses, keeping: status))],
                    save: { values in
                        guard let status = Article.Status(rawValue: values[1]) else {
                            // The status on disk, none Shelf knows, was kept: only the title is written.
                            guard let snapshot else { throw FormError("choose a status") }
                            return .fields(["title": values[0].trimmed], over: snapshot, in: model.live.collection, merge: true)
                        }
                        return try .model(Article(title: values[0].trimmed, status: status), over: snapshot, in: model.live.collection)
                    })
            })
    }
}

/// A save that failed, with the message the form shows.
struct FormError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
