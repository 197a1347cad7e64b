import Foundation
public import Passmint
import Synchronization

/// With `--register`: what this output folder's batch last recorded in the store for each serial, as a digest of the
/// pass's data (``digest(ofDataJSON:)``). A re-run compares it with the stored pass: when they differ, the pass changed
/// at the service since the batch recorded it (an `update`, a PATCH), and the batch leaves it as the service has it.
///
/// The log is `.batch-recorded.jsonl` (one per shard) in the output folder: one `{"serial", "data"}` line each time a
/// serial's digest changes, appended as rows are recorded, so a run killed half-way leaves every line it wrote; the
/// last line of a serial wins. It is read whole when the run starts and written compactly again when it has grown to
/// over twice its serials.
public final class BatchRecordLog: Sendable {
    public let path: String
    private struct State {
        var digests: [String: String]
        var pending: [UInt8] = []
        var lines: Int
    }
    private let state: Mutex<State>
    /// The log of a whole national campaign (a line is ~120 bytes) fits many times over.
    static let maximumBytes = 1 << 30

    public init(folder: String, shard: BatchShard? = nil) throws(PassmintError) {
        let suffix = shard.map { ".shard-\($0.index)-of-\($0.count)" } ?? ""
        path = folder + "/.batch-recorded" + suffix + ".jsonl"
        var digests: [String: String] = [:]
        var lines = 0
        if FileManager.default.fileExists(atPath: path) {
            let bytes = try FileIO.read(
                path, what: "the batch's record log", maximumBytes: Self.maximumBytes, limit: "that Passmint writes in an output folder")
            for line in bytes.split(separator: 0x0A) {
                // A line cut short by a kill is skipped: its row is compared as if never recorded (left as the store has it).
                guard let entry = try? JSONParser.value(line), let serial = entry["serial"]?.stringValue,
                    let data = entry["data"]?.stringValue
                else { continue }
                digests[serial] = data
                lines += 1
            }
        }
        state = Mutex(State(digests: digests, lines: lines))
        if lines > 1000, lines > digests.count * 2 { try compact() }
    }

    /// The digest of the data this folder's batch last recorded for `serial`; nil when it recorded none.
    public func digest(of serial: String) -> String? {
        state.withLock { $0.digests[serial] }
    }

    /// Notes that the store now holds data with this digest for `serial` (written on the next ``flush()``).
    public func note(serial: String, digest: String) {
        let full = state.withLock { state -> Bool in
            guard state.digests[serial] != digest else { return false }
            state.digests[serial] = digest
            state.lines += 1
            let line: JSONValue = ["serial": .string(serial), "data": .string(digest)]
            state.pending.append(contentsOf: JSONWriter.data(line, style: .compact))
            state.pending.append(0x0A)
            return state.pending.count > 1 << 16
        }
        if full { flush() }
    }

    /// Appends the lines noted so far to the log.
    public func flush() {
        let bytes = state.withLock { state -> [UInt8] in
            defer { state.pending.removeAll(keepingCapacity: true) }
            return state.pending
        }
        guard !bytes.isEmpty else { return }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = bytes.withUnsafeBytes { FileIO.writeAll(fd, [$0]) }
    }

    /// Writes the log again with one line per serial.
    private func compact() throws(PassmintError) {
        let bytes = state.withLock { state -> [UInt8] in
            var bytes: [UInt8] = []
            for (serial, digest) in state.digests.sorted(by: { $0.key < $1.key }) {
                bytes.append(contentsOf: JSONWriter.data(["serial": .string(serial), "data": .string(digest)], style: .compact))
                bytes.append(0x0A)
            }
            state.lines = state.digests.count
            return bytes
        }
        try FileIO.writeAtomically(bytes, to: path, permissions: 0o600)
    }

    /// SHA-256 of a pass's data with its object keys in order at every level, so that the same data has the same
    /// digest whatever order a store or an editor wrote its keys in. Text that is not JSON is digested as it is.
    public static func digest(ofDataJSON dataJSON: String) -> String {
        guard let value = try? JSONParser.value(Array(dataJSON.utf8)) else { return Digest.sha256Hex(Array(dataJSON.utf8)) }
        return Digest.sha256Hex(JSONWriter.data(sorted(value), style: .compact))
    }

    private static func sorted(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            .object(
                JSONObject(
                    object.members.sorted { $0.key < $1.key }.map { JSONObject.Member(key: $0.key, value: sorted($0.value)) }))
        case .array(let array): .array(array.map(sorted))
        default: value
        }
    }
}
