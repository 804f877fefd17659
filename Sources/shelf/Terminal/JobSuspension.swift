import Glibc

/// Ctrl-Z as a shell's job: raw mode reads it as a key, so stopping is the app's to do once
/// its screen is given back. The stop is sent to the whole process (a signal to one of
/// Dispatch's threads would wait on its blocked mask), with the default action put back for
/// the moment (ncurses' own handler does nothing once the screen is stopped).
enum JobSuspension {
    /// Set by SIGCONT: the shell's `fg` (or `bg`) continued the process.
    nonisolated(unsafe) private static var continued: sig_atomic_t = 0

    /// Stops the process until the shell continues it; returns false, at once, where nothing
    /// can continue it (no shell's job control: a process group no shell waits on, where
    /// the kernel discards the stop).
    static func suspend() -> Bool {
        continued = 0
        let previousContinue = signal(SIGCONT) { _ in JobSuspension.continued = 1 }
        let ncursesStop = signal(SIGTSTP, SIG_DFL)
        defer {
            signal(SIGTSTP, ncursesStop)
            signal(SIGCONT, previousContinue)
        }
        kill(getpid(), SIGTSTP)
        // Stopped, no time passes here; not stopped, the kernel dropped the signal.
        for _ in 0..<40 where continued == 0 { usleep(5_000) }
        return continued != 0
    }
}
