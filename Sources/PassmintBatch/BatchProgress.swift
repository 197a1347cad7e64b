import Passmint

/// Counts while a batch runs, and at its end.
public struct BatchProgress: Sendable {
    public var rows = 0
    public var issued = 0
    public var existing = 0
    public var failed = 0
    /// Rows recorded for lazy issuing (``BatchOptions/recordOnly``).
    public var recorded = 0
    public var bytes = 0
    public var elapsed: Double = 0
    /// True when the run ended early because a stop was requested (SIGINT).
    public var stopped = false
    /// With `--resume`: passes of an earlier run whose row changed since, issued again (counted in ``issued`` too).
    public var reissued = 0
    /// With `--register`: rows whose stored pass changed at the service since the batch recorded it, left as the
    /// service has them (``BatchResult/Status/changedAtService``).
    public var changedAtService = 0
    /// The failed rows grouped by reason.
    public var failures = FailureSummary()

    /// Passes built per second so far.
    public var passesPerSecond: Double { elapsed > 0 ? Double(issued) / elapsed : 0 }
}
