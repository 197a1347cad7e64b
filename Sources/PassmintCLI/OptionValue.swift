import ArgumentParser
import Foundation
import PassmintBatch
import PassmintServer

/// What the options that are not plain text become, read once when the command line (or the project file) is parsed;
/// a value that is not one is refused naming the option (`--encoding`, or the project file's `encoding`), the value
/// and what it takes.
enum OptionValue {
    static func encoding(_ text: String, option: String = "--encoding") throws -> TextEncoding {
        guard let encoding = TextEncoding(name: text) else {
            throw ValidationError("\(option) \(text) is not an encoding Passmint reads: give utf-8, windows-1252, utf-16le or utf-16be")
        }
        return encoding
    }

    /// The CSV delimiter's byte: `comma`, `semicolon`, `tab`, `pipe` or the character itself.
    static func delimiter(_ text: String, option: String = "--delimiter") throws -> UInt8 {
        let byte: UInt8? =
            switch text.lowercased() {
            case ",", "comma": UInt8(ascii: ",")
            case ";", "semicolon": UInt8(ascii: ";")
            case "tab", "\t", "\\t": UInt8(ascii: "\t")
            case "|", "pipe": UInt8(ascii: "|")
            default: nil
            }
        guard let byte else {
            throw ValidationError(
                "\(option) \(text) is not a delimiter Passmint reads: give comma, semicolon, tab or pipe (',' ';' 'tab' '|')")
        }
        return byte
    }

    static let durationExample = "seconds, or a number followed by m, h or d (e.g. 30d)"

    /// `3600`, `90m`, `12h` or `30d` (``ServerConfiguration/duration(_:)``), at least `minimum`.
    static func duration(_ text: String, option: String, minimum: Duration = .seconds(1), example: String) throws -> Duration {
        guard let duration = ServerConfiguration.duration(text), duration >= minimum else {
            throw ValidationError("\(option) \(text) is not a duration: give \(example)")
        }
        return duration
    }

    static func shard(_ text: String) throws -> BatchShard {
        guard let shard = BatchShard(text) else {
            throw ValidationError(
                "--shard \(text) is not a shard: give i/n with 0 ≤ i < n, e.g. --shard 0/4 … --shard 3/4 (in a Kubernetes Indexed Job, --shard $JOB_COMPLETION_INDEX/n)"
            )
        }
        return shard
    }

    static func reportFormat(_ text: String) throws -> BatchReportWriter.Format {
        guard let format = BatchReportWriter.Format(rawValue: text) else { throw ValidationError("--report must be csv or jsonl") }
        return format
    }
}

extension OptionValue {
    /// An http(s) URL with a host.
    static func httpURL(_ text: String, option: String) throws -> URL {
        guard let url = URL(string: text), url.scheme == "https" || url.scheme == "http", url.host != nil else {
            throw ValidationError("\(option) \(text) is not an http(s) URL")
        }
        return url
    }
}
