import WebImageCore

#if canImport(Glibc)
    import Glibc
#endif

/// A listen address whose port was 0, with the free port chosen for it held by a bound socket
/// that never listens (``ListenAddress/reservingPort()``) until ``release()``: the server
/// releases it once it listens there itself. Released at the latest when the reservation ends.
final class PortReservation: Sendable {
    /// The address with its chosen port (the configured one when it was not 0).
    let address: ListenAddress
    private let descriptor: TrackedMutex<Int32?>

    init(address: ListenAddress, descriptor: Int32?) {
        self.address = address
        self.descriptor = TrackedMutex(descriptor)
    }

    /// Closes the reserving socket; later calls do nothing.
    func release() {
        if let socketFD = descriptor.withLock({ $0.take() }) { close(socketFD) }
    }

    /// The reserving socket while the port is held, else nil.
    var heldDescriptor: Int32? { descriptor.withLock { $0 } }

    deinit { release() }
}
