/// The downloader's transfer of a download work, once the manager's ``DownloadAdmission``
/// started it: the work's cancel and priority reach it, and a cancel that came before it
/// started cancels it as soon as it does.
final class AdmittedTransfer: Sendable {
    private struct State {
        var token: DownloadToken?
        var cancelled = false
    }

    private let state = TrackedMutex(State())

    /// Keeps the started transfer's `token`; cancels it when the work was cancelled first.
    func started(_ token: DownloadToken) {
        let cancelled = state.withLock { state -> Bool in
            state.token = token
            return state.cancelled
        }
        if cancelled { token.cancel() }
    }

    func cancel() {
        let token = state.withLock { state -> DownloadToken? in
            state.cancelled = true
            return state.token
        }
        token?.cancel()
    }

    func setPriority(_ priority: DownloadRequest.Priority) {
        state.withLock { $0.token }?.setPriority(priority)
    }
}
