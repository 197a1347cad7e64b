/// Switches for ``PassLinter``.
public struct LintOptions: Sendable, Equatable {
    /// Accept an `http://` `webServiceURL` (a warning instead of an error): devices accept it only with the
    /// developer setting "Allow HTTP Services".
    public var allowHTTPWebService: Bool

    public init(allowHTTPWebService: Bool = false) {
        self.allowHTTPWebService = allowHTTPWebService
    }
}
