/// Placeholder: replaced by the validation implementation.
final class ValidationProbe {
    func parkAfterFailure(_ error: ResolutionError) -> Never { fatalError(error.description) }
}
