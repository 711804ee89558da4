/// A value kept in a box of its own, so that holding it costs one reference: the pipeline's
/// async frames give every value they hold a slot of its own for the frame's whole life (the
/// compiler does not overlap slots), so the wide values a request carries (its result, its
/// error's stage errors, a transfer's metrics) are kept out of line. Changing the value makes a
/// new box; the old one stays with the copies that share it.
indirect enum OutOfLine<Value: Sendable>: Sendable {
    case boxed(Value)

    init(_ value: Value) { self = .boxed(value) }

    var value: Value {
        get {
            switch self {
            case .boxed(let value): value
            }
        }
        set { self = .boxed(newValue) }
    }
}
