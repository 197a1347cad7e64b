import Foundation

/// Reading an archive with a second, independent ZIP reader: Python's `zipfile`.
extension TestEnvironment {
    /// The entry names Python's `zipfile` reads in the archive at `path`, in order, after `testzip()` found every CRC
    /// right. Throws with Python's error output when it cannot read the archive.
    public static func pythonZipNames(path: String) throws -> [String] {
        let script = "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nprint('\\n'.join(z.namelist()))"
        let result = try run("python3", ["-c", script, path])
        guard result.status == 0 else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "zipfile cannot read \(path): \(result.stderr)"])
        }
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// ``pythonZipNames(path:)`` of archive bytes (written to a temporary file).
    public static func pythonZipNames(_ bytes: [UInt8]) throws -> [String] {
        let url = temporaryFolder("zip").appendingPathComponent("archive.zip")
        try Data(bytes).write(to: url)
        return try pythonZipNames(path: url.path)
    }
}
