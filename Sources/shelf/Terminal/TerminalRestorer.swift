import CNcursesw
import Dispatch
import Glibc

/// Makes sure the terminal is usable again however Shelf ends.
///
/// - Crashes (a Swift trap is SIGILL or SIGTRAP, plus SIGSEGV, SIGABRT, SIGBUS): a handler
///   calls endwin, then the handler that was there before (Swift's backtracer, which prints
///   the crash report, now on a normal screen), then dies of the signal's default action.
/// - SIGTERM, SIGHUP, SIGINT: ignored as signals and delivered to the event loop through
///   dispatch sources instead, which call `NcursesScreen.stop()` and then `terminate(with:)`.
public enum TerminalRestorer {
    /// The signals a crash arrives as.
    public static let crashSignals: [Int32] = [SIGILL, SIGTRAP, SIGSEGV, SIGABRT, SIGBUS]
    /// The signals that ask the process to end.
    public static let terminationSignals: [Int32] = [SIGTERM, SIGHUP, SIGINT]

    /// Installs the crash handlers. Call once, before `NcursesScreen.start()`; safe to repeat.
    public static func installCrashHandlers() {
        for signal in crashSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = crashHandler
            action.sa_flags = SA_SIGINFO | SA_ONSTACK
            sigemptyset(&action.sa_mask)
            var previous = sigaction()
            guard sigaction(signal, &action, &previous) == 0 else { continue }
            // Keep the first handler seen: installing twice must not chain to ourselves.
            if !CrashState.installed[Int(signal)] {
                CrashState.previous[Int(signal)] = previous
                CrashState.installed[Int(signal)] = true
            }
        }
    }

    /// Ignores SIGTERM, SIGHUP and SIGINT as signals and returns resumed dispatch sources that
    /// call `handler` with the signal number on `queue`. Keep the sources alive (store them)
    /// for as long as they should work. The handler should stop the screen, then call
    /// `terminate(with:)`.
    public static func makeTerminationSources(
        queue: DispatchQueue = .main,
        handler: @escaping @Sendable (Int32) -> Void
    ) -> [any DispatchSourceSignal] {
        terminationSignals.map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { handler(signalNumber) }
            source.resume()
            return source
        }
    }

    /// Ends the process the way `signalNumber` would have ended it, so a parent shell sees
    /// "terminated by SIGTERM". Call after `NcursesScreen.stop()`.
    public static func terminate(with signalNumber: Int32) -> Never {
        signal(signalNumber, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signalNumber)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(signalNumber)
        exit(128 + signalNumber)
    }
}

/// Saved handlers, read from the signal handler. Written only by `installCrashHandlers()`
/// on the main thread before any crash can be handled.
private enum CrashState {
    nonisolated(unsafe) static var previous: [sigaction] = Array(repeating: sigaction(), count: 65)
    nonisolated(unsafe) static var installed: [Bool] = Array(repeating: false, count: 65)
}

private func crashHandler(_ signalNumber: Int32, _ info: UnsafeMutablePointer<siginfo_t>?,
                          _ context: UnsafeMutableRawPointer?) {
    endwin()
    // Let the handler that was there before run now, on a normal screen: Swift's backtracer
    // prints its crash report from it. Then die of the signal with the default action: a
    // fault or a sent signal raised here is delivered as soon as this handler returns.
    let previous = CrashState.previous[Int(signalNumber)]
    let raw = unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self)
    if raw != 0 && raw != 1 {  // neither SIG_DFL nor SIG_IGN
        if previous.sa_flags & SA_SIGINFO != 0 {
            previous.__sigaction_handler.sa_sigaction?(signalNumber, info, context)
        } else {
            previous.__sigaction_handler.sa_handler?(signalNumber)
        }
    }
    signal(signalNumber, SIG_DFL)
    raise(signalNumber)
}
