import Logging
import PassmintTestSupport

/// A logger for a service under test: it prints what the default logger prints, and rings `TestEvents` after each
/// line, so that a test waiting for what a background worker does (a push round settled, a job finished, an upload
/// removed) checks again when the worker says it did.
func ringingLogger(label: String) -> Logger {
    Logger(label: label) { RingingLogHandler(inner: StreamLogHandler.standardOutput(label: $0)) }
}

struct RingingLogHandler: LogHandler {
    var inner: StreamLogHandler

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        inner.log(event: event)
        TestEvents.ring()
    }
}
