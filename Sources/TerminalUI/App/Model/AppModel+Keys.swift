import DocumentStore
import Foundation
import TerminalKit

/// Keys go to the update of the mode they are pressed in; keys that act on a tab's documents
/// wait for its rows, and are replayed once they have come.
extension AppModel {
    func handleKey(_ key: Key, pageSize: Int) -> Outcome {
        if Keymap.global.action(for: key) == .suspend { return .suspend }
        if Keymap.global.action(for: key) == .quit {
            // Nothing typed is lost unasked: Ctrl-C in a changed form asks as Esc does;
            // a second Ctrl-C answers yes. No write is lost unsaid: quitting waits for them.
            if case .confirm(.quit) = state.mode { return .quit }
            guard form?.isDirty == true else { return writing.quitAfterWrites() }
            state.mode = .confirm(.quit(before: state.mode))
            return .keepRunning
        }
        // The screen says "Terminal too small": a key would act unseen (a form opened behind
        // the message), so none does but Ctrl-C and Ctrl-Z, until the screen is large again.
        if TooSmall.applies(to: state.size), key != .resize { return .unchanged }
        notice = nil  // a message lasts until the next key
        // Once one key waits for the tab to load, every key after it waits too, bound or
        // not, so "/river 7" replays as typed instead of losing its unbound letters.
        if !state.keysWaitingForLoad.isEmpty, key != .resize {
            state.keysWaitingForLoad.append((key, pageSize))
            return .keepRunning
        }
        defer { state.keepSelectionInView(height: pageSize) }
        let reply: Reply
        switch state.mode {
        case .browse: reply = browsing.handle(key, pageSize: pageSize, in: &state)
        case .filter(let field): reply = PromptUpdate.filter(key, field, in: &state)
        case .prompt(let prompt, let field, let completion): reply = PromptUpdate.prompt(prompt, key, field, completion, in: &state)
        case .form(let session): reply = forms.handle(key, session, in: &state)
        case .help(let offset):
            ViewerUpdate.overlay(Keymap.help, key, offset: offset, pageSize: pageSize, in: &state) { .help(offset: $0) }
            return .keepRunning
        case .messages(let offset):
            ViewerUpdate.overlay(Keymap.messages, key, offset: offset, pageSize: pageSize, in: &state) { .messages(offset: $0) }
            return .keepRunning
        case .raw(let view): reply = ViewerUpdate.raw(key, view, pageSize: pageSize, documents: documents, in: &state)
        case .confirm(let confirmation):
            let answer = confirmation.bindings(in: self).action(for: key)
            if case .quit = confirmation, answer == .yes { return .quit }
            reply = confirming.answer(confirmation, with: answer, in: &state)
        }
        return perform(reply)
    }

    /// Replays the keys that waited for the shown tab to load (`AppAction.replayWaitingKeys`).
    func replayKeysWaitingForLoad() -> Outcome {
        if let draft = state.draftWaitingForLoad, tab.isLoaded, state.isReady(tab) {
            state.draftWaitingForLoad = nil
            _ = perform(forms.reopen(draft, in: &state))
        }
        // Not into a screen too small to show them: they would be dropped (`handleKey`).
        guard state.isReady(tab), !state.keysWaitingForLoad.isEmpty, !TooSmall.applies(to: state.size) else { return .keepRunning }
        let waiting = state.keysWaitingForLoad
        state.keysWaitingForLoad = []
        for (index, (key, pageSize)) in waiting.enumerated() {
            let outcome = apply(.key(key, pageSize: pageSize))
            if outcome != .keepRunning {
                // Keys after one that leaves the screen wait for the screen to come back.
                state.keysWaitingForLoad = Array(waiting[(index + 1)...])
                return outcome
            }
        }
        return .keepRunning
    }

    /// The fetch of the lookup's document again when the books changed since (the guide's
    /// fetch is one-off; the pane should not show a stale book). Made before a frame (`settle`).
    func followLookup() -> Effect? {
        guard state.showsLookup, let fetched = state.lookupFetched, tabs[0].version != fetched.version else { return nil }
        return lookUp(fetched.id)
    }

    /// The guide's fetch of books/`id`, noted with the books' version it follows.
    func lookUp(_ id: String) -> Effect {
        state.lookupFetched = (id, tabs[0].version)
        return .lookUp(books.lookup, id: id)
    }
}
