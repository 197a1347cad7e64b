public import Foundation

/// Template folders shaped by an attacker (issue 40, item 1): links out of the folder, a FIFO, a device, files Wallet
/// does not read. Each function changes a folder a test made and returns the path it changed.
public enum HostileTemplates {
    /// What the stand-in for a signing key holds: a marker a test looks for in whatever was shipped.
    public static let secretMarker = "PASSMINT-TEST-SECRET-KEY-MATERIAL"

    /// A file outside any template standing for `Certificates/dev/signer.key` (no key: a marker, made at test time).
    public static func secretOutside() throws -> URL {
        let file = TestEnvironment.temporaryFolder("outside").appendingPathComponent("signer.key")
        try Data("-----BEGIN PRIVATE KEY-----\n\(secretMarker)\n-----END PRIVATE KEY-----\n".utf8).write(to: file)
        return file
    }

    /// A symbolic link `name` in `folder` to `target`.
    @discardableResult
    public static func link(_ name: String, in folder: URL, to target: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
        return url
    }

    /// A FIFO `name` in `folder` (nobody ever writes to it: a reader that opens it blocking waits for ever).
    @discardableResult
    public static func fifo(_ name: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name)
        guard mkfifo(url.path, 0o644) == 0 else { throw CocoaError(.fileWriteUnknown) }
        return url
    }

    /// A folder outside the template holding `fr.lproj`'s would-be contents, to link a `.lproj` folder to.
    public static func folderOutside() throws -> URL {
        let folder = TestEnvironment.temporaryFolder("outside-folder")
        try Data("\"POINTS\" = \"\(secretMarker)\";\n".utf8).write(to: folder.appendingPathComponent("pass.strings"))
        try Data(secretMarker.utf8).write(to: folder.appendingPathComponent("secrets.txt"))
        return folder
    }

    /// A sparse regular file `name` of `bytes` in `folder`: large on disk by its size, costing nothing to make.
    @discardableResult
    public static func sparse(_ name: String, bytes: Int, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name)
        guard FileManager.default.createFile(atPath: url.path, contents: nil), truncate(url.path, off_t(bytes)) == 0 else {
            throw CocoaError(.fileWriteUnknown)
        }
        return url
    }
}
