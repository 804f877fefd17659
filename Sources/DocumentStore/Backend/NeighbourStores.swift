import Foundation

/// The stores beside a store: Firestore's named databases, and other projects' data kept apart
/// as Google's emulator keeps them (the store `shelf serve` is started on is one project's data,
/// and every other project a request names has a store of its own beside it, so test suites
/// that take a project per run never see each other's documents). One place finds them for
/// the API (`Firestore.firestore(app:database:)`) and the server alike, so both see the same
/// data: here for a folder, through `ServerSchemes.Neighbours` for a store on a server.
package enum NeighbourStores {
    /// Project ids as Google's emulator takes them: lowercase letters, digits and hyphens (it
    /// fails any other with UNKNOWN). At most 100 characters, to stay a usable folder name.
    package static func isValidProjectID(_ id: String) -> Bool {
        (1...100).contains(id.utf8.count) && id.utf8.allSatisfy { c in
            (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "-")
        }
    }

    package static func projectIDRule(_ id: String) -> String {
        "project \"\(id)\": a project id is lowercase letters, digits and hyphens (at most 100)"
    }

    /// Firestore's rule for database ids: 4 to 63 lowercase letters, digits and hyphens,
    /// starting with a letter and not ending with a hyphen.
    package static func isValidDatabaseID(_ name: String) -> Bool {
        let characters = Array(name.utf8)
        guard (4...63).contains(characters.count), let first = characters.first, let last = characters.last else { return false }
        let isLower = { (c: UInt8) in c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z") }
        let isDigit = { (c: UInt8) in c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
        return isLower(first) && last != UInt8(ascii: "-")
            && characters.allSatisfy { isLower($0) || isDigit($0) || $0 == UInt8(ascii: "-") }
    }

    /// Where the database `name` lives beside the store at `location`: a folder's
    /// `__databases__/NAME` (no collection can be named so: Firestore reserves ids of the form
    /// `__…__`), made when missing; on a server, where its module says (PostgreSQL: the
    /// database `<database>__NAME` on the same server).
    package static func location(ofDatabase name: String, besides location: URL) throws -> URL {
        if name == Firestore.defaultDatabaseID { return location }
        guard isValidDatabaseID(name) else {
            throw FirestoreErrorCode(.invalidArgument, "database \"\(name)\": a database id is 4 to 63 characters of lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen, or (default)")
        }
        guard location.isFileURL else { return try ServerSchemes.neighbours(of: location, for: "database \"\(name)\"").database(name, location) }
        return try folder(location.appendingPathComponent("__databases__").appendingPathComponent(name), for: "database \"\(name)\"")
    }

    /// Where project `id`'s data lives beside the store at `location` (which is another
    /// project's): a folder's `__projects__/ID` (reserved as `__databases__` is), made when
    /// missing; on a server, where its module says (PostgreSQL: the database `<database>~ID` on
    /// the same server). The project's named databases are beside its store, as the owner's are
    /// beside `location`.
    package static func location(ofProject id: String, besides location: URL) throws -> URL {
        guard isValidProjectID(id) else { throw FirestoreErrorCode(.invalidArgument, projectIDRule(id)) }
        guard location.isFileURL else { return try ServerSchemes.neighbours(of: location, for: "project \"\(id)\"").project(id, location) }
        return try folder(location.appendingPathComponent(projectsFolder).appendingPathComponent(id), for: "project \"\(id)\"")
    }

    private static func folder(_ folder: URL, for what: String) throws -> URL {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw FirestoreErrorCode(.unavailable, "\(what): cannot make its folder \(folder.path): \(error.localizedDescription)")
        }
        return folder
    }

    /// The project whose data the store at `location` is: the one it was first served for,
    /// recorded with it (a folder's `__projects__/owner` file; PostgreSQL's `shelf_project`
    /// table), or `claiming`, recorded now when none was. Two servers claiming at once agree.
    package static func owner(of location: URL, claiming id: String) throws -> String {
        guard isValidProjectID(id) else { throw FirestoreErrorCode(.invalidArgument, projectIDRule(id)) }
        guard location.isFileURL else { return try ServerSchemes.neighbours(of: location, for: "project \"\(id)\"").owner(id, location) }
        let folder = location.appendingPathComponent(projectsFolder)
        let file = folder.appendingPathComponent("owner")
        if let owner = try recordedOwner(in: file) { return owner }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // Written whole under another name, then linked: a claim is all there or not at
            // all, and a second claimer's link fails, so it reads the first one's.
            let draft = folder.appendingPathComponent(".owner-\(UUID().uuidString)")
            try Data((id + "\n").utf8).write(to: draft)
            defer { try? FileManager.default.removeItem(at: draft) }
            do { try FileManager.default.linkItem(at: draft, to: file) } catch {
                if let owner = try recordedOwner(in: file) { return owner }
                throw error
            }
            return id
        } catch let error as FirestoreErrorCode {
            throw error
        } catch {
            throw FirestoreErrorCode(.unavailable, "project \"\(id)\": cannot record it as the owner of \(location.path) in \(file.path): \(error.localizedDescription)")
        }
    }

    /// Other projects' data, and the owner's record, in a folder store.
    private static let projectsFolder = "__projects__"

    private static func recordedOwner(in file: URL) throws -> String? {
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        let owner = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard isValidProjectID(owner) else {
            throw FirestoreErrorCode(.dataLoss, "\(file.path) should name the project whose data this folder is (lowercase letters, digits and hyphens), but holds \"\(owner.prefix(100))\": fix or remove it")
        }
        return owner
    }
}
