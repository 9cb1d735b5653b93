import PorterModel
import Testing

/// Runs `body` and returns the ``PorterError`` it throws, recording an issue when it throws
/// something else or nothing, or when the code differs from `code` (any code when nil).
@discardableResult
public func expectPorterError(
    _ code: PorterError.Code? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) -> PorterError? {
    do {
        try body()
        Issue.record(
            "expected a PorterError\(code.map { " .\($0)" } ?? "") but nothing was thrown",
            sourceLocation: sourceLocation)
        return nil
    } catch let error as PorterError {
        if let code { #expect(error.code == code, "unexpected error: \(error)", sourceLocation: sourceLocation) }
        return error
    } catch {
        Issue.record(
            "expected a PorterError\(code.map { " .\($0)" } ?? "") but got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
