import DocumentStore
import Foundation
import Observation
import TerminalKit
import TerminalUI

/// The event loop (DESIGN.md): one thread running `dispatchMain()`; keys, resizes, signals and
/// store listeners all arrive on the main queue, so the app's state needs no locks. After
/// events, one coalesced draw renders the app to a canvas and copies it to ncurses.
@MainActor
final class ShelfApp {
    private let screen: NcursesScreen
    private let model: AppModel
    private var sources: [any DispatchSourceProtocol] = []
    private var drawIsScheduled = false
    private let timings = TimingLog()
    /// Keys handled since the last frame, and when the first of them arrived.
    private var pendingKeys: (labels: [String], since: Double)?
    private var loggedLoads: Set<String> = []
    /// What a click means on the frame on screen.
    private var hits = HitMap.none

    private init(screen: NcursesScreen, model: AppModel) {
        self.screen = screen
        self.model = model
    }

    nonisolated static func run(store: Firestore, notice: String?, mouse: Bool) -> Never {
        MainActor.assumeIsolated {
            let screen = NcursesScreen(mouse: mouse)
            do {
                try screen.start()
            } catch {
                FileHandle.standardError.write(Data("shelf: \(error)\n".utf8))
                exit(1)
            }
            TerminalRestorer.installCrashHandlers()
            let model = AppModel(store: store, colorMode: screen.colorMode, notice: notice,
                                 draftFile: DraftFile(store: store))
            model.showsDocumentTimes = true
            let app = ShelfApp(screen: screen, model: model)
            app.start()
        }
        dispatchMain()
    }

    private func start() {
        sources.append(ScreenEventSources.input(of: screen,
            onKeys: { [self] keys in handle(keys) },
            onEndOfInput: { [self] in quit(signal: SIGHUP) }))
        sources.append(ScreenEventSources.resize(of: screen) { [self] _ in scheduleDraw() })
        sources += TerminalRestorer.makeTerminationSources { [self] signal in
            MainActor.assumeIsolated { () -> Void in quit(signal: signal) }
        }
        sources.append(makeCollectionsTimer())
        model.afterEffect = { [self] outcome in
            perform(outcome)
            if outcome != .unchanged { scheduleDraw() }
        }
        draw()
    }

    /// Once a second, the app looks at the collections (`AppAction.tick`): one readdir of the
    /// data folder (or one query of the server, which also says whether it answers), off the
    /// main thread, so a collection folder made by another program appears as a tab, a removed
    /// one's tab says it is gone, an emptied one's closes, and the selected document's detail
    /// names its collections; the result comes back as the app's effects do.
    private func makeCollectionsTimer() -> any DispatchSourceProtocol {
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(100))
        timer.setEventHandler { [self] in
            MainActor.assumeIsolated { _ = model.apply(.tick) }
        }
        timer.resume()
        return timer
    }

    private func handle(_ keys: [Key]) {
        if timings != nil {
            let labels = keys.map { $0.label.replacingOccurrences(of: " ", with: "Space") }
            pendingKeys = ((pendingKeys?.labels ?? []) + labels, pendingKeys?.since ?? TimingLog.now())
        }
        for key in keys where key != .resize {
            if case .mouse(let event) = key {
                model.apply(.mouse(event.kind, on: hits.hit(at: event.point)))
            } else {
                perform(model.apply(.key(key, pageSize: AppView.listHeight(for: screen.size))))
            }
        }
        scheduleDraw()
    }

    /// What an action asks for beyond the app's state.
    private func perform(_ outcome: Outcome) {
        switch outcome {
        case .keepRunning, .unchanged: break
        case .quit: quit(signal: nil)
        case .runEditor(let file):
            let result = awayFromScreen { ExternalEditor.fromEnvironment().run(on: file) }
            model.apply(.editorFinished(file, result: result))
            scheduleDraw()
        case .copyToClipboard(let text):
            screen.send(Clipboard.osc52(copying: text))
        case .suspend:
            let suspended = awayFromScreen { JobSuspension.suspend() }
            if !suspended { model.apply(.suspensionRefused) }
            scheduleDraw()
        }
    }

    /// Gives the terminal back while `body` runs (the editor, a suspension), then takes it
    /// again; a terminal that cannot be taken again ends Shelf as a hang-up does.
    private func awayFromScreen<Result>(_ body: () -> Result) -> Result {
        screen.stop()
        let result = body()
        do { try screen.start() } catch { quit(signal: SIGHUP) }
        return result
    }

    /// Several events in a row make one frame.
    private func scheduleDraw() {
        guard !drawIsScheduled else { return }
        drawIsScheduled = true
        DispatchQueue.main.async { MainActor.assumeIsolated { self.draw() } }
    }

    /// Renders while tracking what the view models it reads; any change to them (a listener
    /// delivering, a fetch finishing) schedules the next frame.
    private func draw() {
        drawIsScheduled = false
        let started = timings == nil ? 0 : TimingLog.now()
        // A large collection is sorted a slice a frame; keys typed meanwhile wait, then replay.
        let sorting = model.apply(.sortSlice) == .keepRunning
        perform(model.apply(.replayWaitingKeys))
        let size = screen.size
        let frame = withObservationTracking {
            model.frame(size: size)
        } onChange: { [self] in
            DispatchQueue.main.async { MainActor.assumeIsolated { self.scheduleDraw() } }
        }
        hits = frame.hits
        screen.draw(frame.canvas, cursor: frame.cursor)
        if let timings { logTimings(timings, frameStarted: started) }
        if sorting { scheduleDraw() }
    }

    private func logTimings(_ timings: TimingLog, frameStarted: Double) {
        let now = TimingLog.now()
        timings.log("frame", String(now), String(frameStarted))
        if let keys = pendingKeys {
            timings.log("keys", String(keys.since), String(now), keys.labels.joined(separator: ","))
            pendingKeys = nil
        }
        for id in model.loadedCollectionIDs where !loggedLoads.contains(id) {
            loggedLoads.insert(id)
            timings.log("loaded", id, String(now))
        }
    }

    /// A signal (SIGTERM, SIGHUP, SIGINT, or the terminal gone) keeps a half-typed form as a
    /// draft, offered at the next start; quitting by a key has already asked. Writes in flight
    /// are waited for a few seconds; a save that failed or did not finish keeps its form as a
    /// draft however Shelf quits, and a write still under way is named as Shelf leaves.
    private func quit(signal: Int32?) -> Never {
        let unfinished = model.finishWrites(within: .seconds(5))
        var kept: String?
        if let draft = signal != nil ? model.formDraft : model.unsavedDraft, let file = model.draftFile {
            do {
                try file.save(draft)
                kept = "shelf: kept the form you were typing in (\(draft.title)) in \(file.url.path); the next start offers it\n"
            } catch {
                kept = "shelf: could not keep the form you were typing in (\(draft.title)) in \(file.url.path): \(error.localizedDescription)\n"
            }
        }
        screen.stop()
        if let kept { FileHandle.standardError.write(Data(kept.utf8)) }
        for write in unfinished {
            FileHandle.standardError.write(Data("shelf: quit while \(write) was under way: it may not have been made\n".utf8))
        }
        if let signal { TerminalRestorer.terminate(with: signal) }
        exit(0)
    }
}
