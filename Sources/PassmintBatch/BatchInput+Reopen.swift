import Foundation
public import Passmint

extension BatchInput {
    /// The same file opened again from its first row, read as this one is (for a run that reads the file twice).
    public func reopened() throws(PassmintError) -> BatchInput {
        try BatchInput(path: path, delimiter: requestedDelimiter, encoding: requestedEncoding)
    }

    /// The encoding's name for a message: "UTF-8", "Windows-1252".
    public var encodingName: String {
        (encoding ?? .utf8).rawValue.uppercased().replacingOccurrences(of: "WINDOWS", with: "Windows")
    }
}

extension CSVReader {
    /// True for the message of a record whose text is not valid in the file's encoding (a problem of the whole file,
    /// not of its row).
    public static func isEncodingProblem(_ message: String) -> Bool {
        message.hasPrefix("a field is not valid UTF-8") || message.hasPrefix("a field is not valid UTF-16")
            || message.hasPrefix("a field cannot be read as Windows-1252")
    }
}
