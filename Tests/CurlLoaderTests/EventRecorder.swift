import Foundation
import WebImageCore

/// Records a transfer's events from the loader's thread and lets a test wait for its end.
final class EventRecorder: Sendable {
    private let state = TrackedMutex<(events: [LoadEvent], dataBytes: Int)>(([], 0))
    private let done = DispatchSemaphore(value: 0)

    var handler: @Sendable (LoadEvent) -> Void {
        { [self] event in
            let finished = state.withLock { state -> Bool in
                if case .data(let chunk) = event {
                    state.dataBytes += chunk.count
                    if state.events.last.map({ if case .data = $0 { true } else { false } }) == true { return false }
                }
                state.events.append(event)
                if case .completed = event { return true }
                return false
            }
            if finished { done.signal() }
        }
    }

    /// Body bytes received so far.
    var dataBytes: Int { state.withLock { $0.dataBytes } }

    /// True once any body byte arrived.
    var hasData: Bool { dataBytes > 0 }

    /// The completion, waiting at most `seconds`; nil when it did not come in time.
    func completion(within seconds: Double) -> Result<LoadMetrics, ImageLoadingError>? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return state.withLock { state in
            if case .completed(let result) = state.events.last { return result }
            return nil
        }
    }

    /// How many `.completed` events arrived (exactly one is right).
    var completionCount: Int {
        state.withLock { $0.events.filter { if case .completed = $0 { true } else { false } }.count }
    }
}
