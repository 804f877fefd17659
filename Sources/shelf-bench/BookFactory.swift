/// Makes varied, plausible books and Firestore-style ids from a fixed seed, so every run
/// writes the same collection.
struct BookFactory {
    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    private static let idAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    /// A 20-character id from A-Z a-z 0-9, as `collection.document()` makes.
    mutating func makeID() -> String {
        String((0..<20).map { _ in Self.idAlphabet[Int(random.next() % UInt64(Self.idAlphabet.count))] })
    }

    /// `count` books with distinct ids.
    mutating func makeBooks(_ count: Int) -> [(id: String, book: Book)] {
        var seen = Set<String>()
        var books: [(id: String, book: Book)] = []
        books.reserveCapacity(count)
        while books.count < count {
            let id = makeID()
            guard seen.insert(id).inserted else { continue }
            books.append((id, makeBook()))
        }
        return books
    }

    mutating func makeBook() -> Book {
        let title: String
        switch random.next() % 5 {
        case 0: title = "The \(pick(Self.adjectives)) \(pick(Self.nouns))"
        case 1: title = "\(pick(Self.nouns)) of \(pick(Self.places))"
        case 2: title = "A \(pick(Self.nouns)) for \(pick(Self.firstNames))"
        case 3: title = "The \(pick(Self.nouns)) and the \(pick(Self.nouns))"
        default: title = "\(pick(Self.adjectives)) \(pick(Self.nouns))s"
        }
        var genres: [String] = []
        for _ in 0..<(1 + Int(random.next() % 3)) {
            let genre = pick(Self.genres)
            if !genres.contains(genre) { genres.append(genre) }
        }
        return Book(title: title, author: "\(pick(Self.firstNames)) \(pick(Self.lastNames))",
                    numberOfPages: 100 + Int(random.next() % 900), genres: genres)
    }

    private mutating func pick(_ words: [String]) -> String {
        words[Int(random.next() % UInt64(words.count))]
    }

    private static let adjectives = [
        "Silent", "Hidden", "Last", "Broken", "Golden", "Distant", "Burning", "Quiet", "Forgotten", "Crimson",
        "Endless", "Northern", "Secret", "Wandering", "Glass", "Iron", "Little", "Long", "Winter", "Midnight",
    ]
    private static let nouns = [
        "River", "Garden", "Lighthouse", "Orchard", "Map", "Clockmaker", "Harbour", "Library", "Winter", "Forest",
        "Letter", "Island", "Mirror", "Bridge", "Daughter", "Storm", "Kingdom", "Violin", "Atlas", "Comet",
        "Machine", "Station", "Archive", "Cartographer", "Tide",
    ]
    private static let places = [
        "Salt", "Ashes", "the Valley", "Lost Time", "Small Hours", "the Deep", "Glass", "the North", "Lanterns",
        "Paper", "Summer", "the Sea", "Stone", "Dust",
    ]
    private static let firstNames = [
        "Ursula", "Gabriel", "Toni", "Haruki", "Chimamanda", "Italo", "Octavia", "Jorge", "Margaret", "Kazuo",
        "Stanisław", "Zadie", "Orhan", "Hilary", "Jhumpa", "Ted", "Mary", "José", "Elena", "Tove",
        "Amitav", "Olga", "Ngũgĩ", "Sally", "Terry",
    ]
    private static let lastNames = [
        "Le Guin", "García Márquez", "Morrison", "Murakami", "Adichie", "Calvino", "Butler", "Borges", "Atwood",
        "Ishiguro", "Lem", "Smith", "Pamuk", "Mantel", "Lahiri", "Chiang", "Shelley", "Saramago", "Ferrante",
        "Jansson", "Ghosh", "Tokarczuk", "wa Thiong'o", "Rooney", "Pratchett",
    ]
    private static let genres = [
        "Fantasy", "Science Fiction", "Literary Fiction", "Mystery", "Historical", "Romance", "Thriller", "Classic",
        "Short Stories", "Magical Realism", "Horror", "Adventure", "Poetry", "Biography", "Humour", "Young Adult",
    ]
}

/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
