import Foundation
public import Passmint

/// One data row of a batch.
public struct BatchRow: Sendable {
    /// 1-based number of the data row (the CSV header is not counted).
    public var number: Int
    /// The line of the file it starts on.
    public var line: Int
    /// Placeholder name → value, or why the row cannot be read.
    public var values: Result<JSONObject, PassmintError>
}

/// Reads batch rows from a CSV file (header = placeholder names, values are strings) or a JSON Lines file (one object
/// per line, typed values), one at a time. CSV files may be comma-, semicolon- or tab-separated and in UTF-8, UTF-16
/// (with a byte order mark) or Windows-1252: see ``CSVReader``.
public struct BatchInput {
    private enum Source {
        case csv(CSVReader, header: [String])
        case jsonLines(JSONLinesReader, line: Int)
    }

    private var source: Source
    private var count = 0
    public let path: String
    /// The delimiter and encoding asked for when the file was opened (nil: detected, UTF-8).
    let requestedDelimiter: UInt8?
    let requestedEncoding: TextEncoding?
    /// The encoding a CSV file is read in; nil for JSON Lines (UTF-8).
    public let encoding: TextEncoding?

    /// How the file was read, for a line on the terminal: "JSON Lines", or e.g. "CSV, semicolon-separated (detected
    /// from the header), UTF-16LE (byte order mark), 8 columns".
    public let formatDescription: String

    /// Opens `path`; `.jsonl`/`.ndjson` files are JSON Lines, everything else CSV. For CSV, `delimiter` nil detects
    /// it from the header line, and `encoding` applies to files without a byte order mark (UTF-8 when nil).
    public init(path: String, delimiter: UInt8? = nil, encoding: TextEncoding? = nil) throws(PassmintError) {
        self.path = path
        requestedDelimiter = delimiter
        requestedEncoding = encoding
        let lower = path.lowercased()
        if lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") {
            guard let reader = JSONLinesReader(path: path, maximumLine: CSVReader.maximumRecordBytes) else {
                throw PassmintError(.fileSystem, "data file \(path) does not exist or cannot be read")
            }
            source = .jsonLines(reader, line: 0)
            self.encoding = nil
            formatDescription = "JSON Lines"
            return
        }
        var reader = try CSVReader(path: path, delimiter: delimiter, encoding: encoding)
        guard let first = reader.next() else {
            throw PassmintError(.invalidData, "data file \(path) is empty: the first line must name the placeholders")
        }
        switch first {
        case .failure(let error): throw PassmintError(.invalidData, "data file \(path): the header cannot be read (\(error))")
        case .success(let header):
            let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces) }
            if names.count == 1,
                let other = [UInt8(ascii: ";"), UInt8(ascii: "\t"), UInt8(ascii: ",")].first(where: {
                    $0 != reader.delimiter && names[0].utf8.contains($0)
                })
            {
                let name = CSVReader.name(ofDelimiter: other)
                throw PassmintError(
                    .invalidData,
                    """
                    data file \(path): the header is a single column, "\(MessageText.cut(names[0]))", which contains a \
                    \(name): the file looks \(name)-separated but is read as \
                    \(CSVReader.name(ofDelimiter: reader.delimiter))-separated; give --delimiter \(name) (or leave --delimiter out to detect it)
                    """)
            }
            if let empty = names.firstIndex(of: "") {
                throw PassmintError(.invalidData, "data file \(path): column \(empty + 1) of the header has no name")
            }
            var seen: Set<String> = []
            for name in names where !seen.insert(name).inserted {
                throw PassmintError(.invalidData, "data file \(path): the header names \"\(MessageText.cut(name))\" twice")
            }
            source = .csv(reader, header: names)
            self.encoding = reader.encoding
            let encodingName = reader.encoding.rawValue.uppercased().replacingOccurrences(of: "WINDOWS", with: "Windows")
            formatDescription =
                "CSV, \(CSVReader.name(ofDelimiter: reader.delimiter))-separated"
                + (reader.detectedDelimiter ? " (detected from the header)" : "")
                + ", \(encodingName)\(reader.hasByteOrderMark ? " (byte order mark)" : ""), \(names.count) column\(names.count == 1 ? "" : "s")"
        }
    }

    /// Rows in the file, estimated by counting line breaks (exact unless quoted values hold line breaks), for
    /// progress and ETA. Reads the file once, in blocks.
    public static func estimatedRowCount(path: String) -> Int? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var lines = 0
        var endsWithLineBreak = true
        var first = true
        // UTF-16 counts line breaks in 2-byte units (blocks have an even size, so units never straddle two).
        var unitOffset: Int?
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            let bytes = [UInt8](chunk)
            if first, let (encoding, _) = TextEncoding.byteOrderMark(bytes[...]) {
                unitOffset = encoding == .utf16LE ? 0 : encoding == .utf16BE ? 1 : nil
            }
            first = false
            if let unitOffset {
                var index = 0
                while index + 1 < bytes.count {
                    if bytes[index + unitOffset] == 0x0A && bytes[index + 1 - unitOffset] == 0 { lines += 1 }
                    index += 2
                }
                endsWithLineBreak = bytes.count >= 2 && bytes[bytes.count - 2 + unitOffset] == 0x0A
            } else {
                lines += bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                endsWithLineBreak = bytes.last == 0x0A
            }
        }
        if !endsWithLineBreak { lines += 1 }
        let lower = path.lowercased()
        return lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") ? lines : max(0, lines - 1)
    }

    /// The CSV header, nil for JSON Lines.
    public var columns: [String]? {
        if case .csv(_, let header) = source { return header }
        return nil
    }

    /// What a JSON Lines line over ``CSVReader/maximumRecordBytes`` is told (after "row N (line L)").
    static let tooLongLine = "is longer than \(CSVReader.maximumRecordBytes >> 20) MiB, the limit of a row: shorten its values"

    /// The next row; nil at the end of the file.
    public mutating func next() -> BatchRow? {
        switch source {
        case .csv(var reader, let header):
            defer { source = .csv(reader, header: header) }
            while let record = reader.next() {
                switch record {
                case .failure(let error):
                    count += 1
                    return BatchRow(number: count, line: error.line, values: .failure(PassmintError(.invalidData, error.message)))
                case .success(let record):
                    if record.fields == [""] { continue }  // blank line
                    count += 1
                    guard record.fields.count == header.count else {
                        return BatchRow(
                            number: count, line: record.line,
                            values: .failure(
                                PassmintError(
                                    .invalidData,
                                    "has \(record.fields.count) field(s) but the header names \(header.count) "
                                        + "(quote values that contain the delimiter, \(CSVReader.name(ofDelimiter: reader.delimiter)))")))
                    }
                    var object = JSONObject()
                    for (name, value) in zip(header, record.fields) { object[name] = .string(value) }
                    return BatchRow(number: count, line: record.line, values: .success(object))
                }
            }
            return nil
        case .jsonLines(let reader, var line):
            defer { source = .jsonLines(reader, line: line) }
            while let (read, _) = reader.next() {
                line += 1
                guard case .text(let bytes) = read else {
                    count += 1
                    return BatchRow(number: count, line: line, values: .failure(PassmintError(.invalidData, Self.tooLongLine)))
                }
                if read.isBlank { continue }
                count += 1
                do {
                    let value = try JSONParser.value(bytes)
                    guard let object = value.objectValue else {
                        return BatchRow(
                            number: count, line: line,
                            values: .failure(PassmintError(.invalidData, "holds \(value.typeName), not a JSON object")))
                    }
                    return BatchRow(number: count, line: line, values: .success(object))
                } catch {
                    return BatchRow(
                        number: count, line: line,
                        values: .failure(PassmintError(.invalidData, "is not valid JSON (column \(error.column): \(error.message))")))
                }
            }
            return nil
        }
    }
}
