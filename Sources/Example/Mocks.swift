/// What a test would register instead of the real backend.
final class MockAPIClient: APIClient {
    func post(_ path: String) -> String {
        "mocked response for \(path)"
    }
}
