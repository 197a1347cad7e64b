import Foundation
import Passmint

/// Where a batch's passes go, in row order (``BatchOutput``): files are written by the workers themselves; an archive
/// or a tar stream is written here, one pass after another, by the loop that writes the report.
final class BatchPassSink {
    /// A pass found whole in an archive being resumed (``BatchOptions/resume`` with ``BatchOutput/archive(path:)``).
    struct KeptPass: Sendable {
        var serialNumber: String
        var passTypeIdentifier: String
        var authenticationToken: String
        var sha256: String
    }

    private let archive: PassArchiveWriter?
    private let tar: PassTarWriter?
    /// Passes kept from an archive being resumed, by entry name.
    let kept: [String: KeptPass]

    init(output: BatchOutput, resume: Bool) throws(PassmintError) {
        switch output {
        case .folder:
            (archive, tar, kept) = (nil, nil, [:])
        case .archive(let path):
            var kept: [String: KeptPass] = [:]
            archive = try PassArchiveWriter(path: path, resume: resume) { name, bytes in
                guard let entries = try? ZipArchive.read(bytes, source: name),
                    let json = entries.first(where: { $0.name == "pass.json" }).flatMap({ try? JSONParser.value($0.bytes) }),
                    let serial = json["serialNumber"]?.stringValue
                else { return }
                kept[name] = KeptPass(
                    serialNumber: serial, passTypeIdentifier: json["passTypeIdentifier"]?.stringValue ?? "",
                    authenticationToken: json["authenticationToken"]?.stringValue ?? "", sha256: Digest.sha256Hex(bytes))
            }
            tar = nil
            self.kept = kept
        case .tarStream(let fileDescriptor):
            (archive, tar, kept) = (nil, PassTarWriter(fileDescriptor: fileDescriptor), [:])
        }
    }

    /// Writes a pass the workers handed over (``BatchResult/archive``) and lets go of its bytes.
    func write(_ result: inout BatchResult) throws(PassmintError) {
        guard let pass = result.archive else { return }
        result.archive = nil
        try archive?.append(name: result.file, archive: pass)
        try tar?.append(name: result.file, archive: pass)
    }

    /// Ends the output: the archive's central directory, or the tar stream with the report (read from `reportPath`).
    func finish(reportPath: String) throws(PassmintError) {
        try archive?.finish()
        try tar?.finish(reportAt: reportPath)
    }
}
