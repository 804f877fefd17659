/// What one of apply's focused updates (keys, forms, writes, questions, the mouse) asks for
/// beyond the state it changed. The update stays a function of the state and what it was
/// given; `AppModel` does what the reply says: the status line, the lookup, the effects, and
/// the outcome handed to the shell.
struct Reply {
    /// The status line's new message; nil leaves it as it is (unless `clearsNotice`).
    var notice: String?
    /// The message goes (a click, as a key's does).
    var clearsNotice = false
    /// Said only when the status line has nothing else to say by then.
    var fallbackNotice: String?
    /// Effects to start, in order, once the state and the message are set.
    var effects: [Effect] = []
    /// `o` on the books tab: the id the guide's lookup fetches.
    var lookup: String?
    var outcome: Outcome = .keepRunning

    init(notice: String? = nil, effects: [Effect] = [], outcome: Outcome = .keepRunning) {
        self.notice = notice
        self.effects = effects
        self.outcome = outcome
    }

    /// Just `effect`, or nothing when there is none to start.
    init(starting effect: Effect?) {
        self.init(effects: effect.map { [$0] } ?? [])
    }

    /// This reply, then `next`: its message and its outcome win where it has one.
    mutating func add(_ next: Reply) {
        if next.notice != nil || next.clearsNotice {
            notice = next.notice
            clearsNotice = next.clearsNotice
        }
        fallbackNotice = next.fallbackNotice ?? fallbackNotice
        effects += next.effects
        lookup = next.lookup ?? lookup
        if next.outcome != .keepRunning { outcome = next.outcome }
    }
}
