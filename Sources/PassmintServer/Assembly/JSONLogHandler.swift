import Foundation
public import Logging
import Passmint

/// `--log-format json`: one JSON object a line on standard error, for log collectors (Loki, CloudWatch, Elastic):
/// `time` (ISO 8601, milliseconds, UTC), `level`, `logger`, `message`, then the line's metadata as members (a value
/// of several parts as an array or object). Never two lines interleaved.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    let label: String

    public init(label: String) { self.label = label }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var object: JSONObject = [
            "time": .string(Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))),
            "level": .string(event.level.rawValue), "logger": .string(label), "message": .string(event.message.description),
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }).sorted(by: { $0.key < $1.key })
        where object[key] == nil {
            object[key] = Self.json(value)
        }
        var line = JSONWriter.data(.object(object), style: .compact)
        line.append(0x0A)
        line.withUnsafeBytes { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }  // one write: whole lines
    }

    static func json(_ value: Logger.Metadata.Value) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .stringConvertible(let convertible): .string(convertible.description)
        case .array(let values): .array(values.map(json))
        case .dictionary(let members):
            .object(JSONObject(members.sorted { $0.key < $1.key }.map { .init(key: $0.key, value: json($0.value)) }))
        }
    }
}
