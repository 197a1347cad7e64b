import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint
@testable import PassmintBatch

/// A data file comes from anyone (issue 32, items 1 and 13): its `image:` cells may name only regular files inside the
/// data file's folder (or an `--images-from` folder), checked by their size before a byte is read; its values may not
/// smuggle control characters into `pass.json` or the report.
@Suite(.computeThreads) struct BatchHostileCellsTests {
    /// Runs a batch of the Generic template over `rows` (serial → image cell) in `folder`, and returns each failed
    /// serial's error from the report, and how many passes were issued.
    static func run(
        _ rows: [(serial: String, photo: String)], in folder: URL, imageFolders: [String] = []
    ) async throws -> (errors: [String: String], issued: Int) {
        var csv = PassImagesTests.header
        for row in rows { csv += PassImagesTests.row(row.serial, photo: row.photo) }
        let data = folder.appendingPathComponent("members.csv")
        try Data(csv.utf8).write(to: data)
        let output = folder.appendingPathComponent("out")
        var options = BatchOptions(outputFolder: output.path)
        options.imageFolders = imageFolders
        let runner = BatchRunner(
            template: try PassTemplate(folder: PassImagesTests.generic), builder: PassBuilder(identity: try TestTemplates.identity()),
            options: options)
        let result = try await runner.run(try BatchInput(path: data.path))
        var reader = try CSVReader(path: output.appendingPathComponent("batch-report.csv").path)
        var errors: [String: String] = [:]
        while let record = reader.next() {
            let fields = try record.get().fields
            if fields[2] == "failed" { errors[fields[1]] = fields[6] }
        }
        return (errors, result.issued)
    }

    @Test func imageCellsNameOnlyRegularFilesInsideTheDataFolder() async throws {
        let root = TestEnvironment.temporaryFolder("hostile-cells")
        let folder = root.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let photo = TestPNG.make(width: 180, height: 180)
        try Data(photo).write(to: folder.appendingPathComponent("ok.png"))
        try Data(photo).write(to: root.appendingPathComponent("outside.png"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("zero.png").path, withDestinationPath: "/dev/zero")
        let fifo = folder.appendingPathComponent("fifo.png").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Larger than the limit by its size on disk: a sparse file, refused by fstat before any byte is read.
        let huge = folder.appendingPathComponent("huge.png").path
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        #expect(truncate(huge, off_t(BatchImageFiles.maximumBytes + 1)) == 0)

        let (errors, issued) = try await Self.run(
            [
                ("C-1", "ok.png"), ("C-2", "/dev/zero"), ("C-3", "zero.png"), ("C-4", "fifo.png"),
                ("C-5", root.appendingPathComponent("outside.png").path), ("C-6", "../outside.png"), ("C-7", "huge.png"),
            ], in: folder)
        #expect(issued == 1, "\(errors)")
        let expected = [
            "C-2": "image:thumbnail@2x (/dev/zero): /dev/zero is an absolute path outside",
            "C-3": "image:thumbnail@2x (zero.png): zero.png leads outside the data file's folder",
            "C-4": "image:thumbnail@2x (fifo.png): fifo.png is not a regular file",
            "C-5": "image:thumbnail@2x (\(root.appendingPathComponent("outside.png").path)): ",
            "C-6": "image:thumbnail@2x (../outside.png): ../outside.png leads outside the data file's folder",
            "C-7": "image:thumbnail@2x (huge.png): huge.png is \(BatchImageFiles.maximumBytes + 1) bytes, more than the",
        ]
        for (serial, text) in expected {
            let message = errors[serial] ?? "(issued)"
            #expect(message.hasPrefix("row ") && message.contains(text), "\(serial): \(message)")
        }
        #expect(errors["C-5"]?.contains("is an absolute path outside") == true)
    }

    @Test func imagesFromAllowsAnotherFolderButStillOnlyRegularFiles() async throws {
        let root = TestEnvironment.temporaryFolder("hostile-cells-allowed")
        let folder = root.appendingPathComponent("data")
        let shared = root.appendingPathComponent("artwork")
        for made in [folder, shared] { try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true) }
        try Data(TestPNG.make(width: 180, height: 180)).write(to: shared.appendingPathComponent("art.png"))
        let (errors, issued) = try await Self.run(
            [("A-1", "../artwork/art.png"), ("A-2", shared.appendingPathComponent("art.png").path), ("A-3", "/dev/zero")],
            in: folder, imageFolders: [shared.path, "/dev"])
        #expect(issued == 2, "\(errors)")
        #expect(errors["A-3"]?.contains("/dev/zero is not a regular file") == true, "\(errors)")
    }

    @Test func aControlCharacterInAValueIsRefusedAndNeverCopiedIntoTheReport() async throws {
        let folder = TestEnvironment.temporaryFolder("hostile-nul")
        var csv = BatchRunnerTests.header()
        csv += BatchRunnerTests.row(1, name: "Zoë\u{0}Müller")
        csv += BatchRunnerTests.row(2, name: "Esc\u{1B}[31m")
        csv += BatchRunnerTests.row(3, name: "Tab\tis text")
        let data = folder.appendingPathComponent("members.csv")
        try Data(csv.utf8).write(to: data)
        let output = folder.appendingPathComponent("out")
        let runner = BatchRunner(
            template: try PassTemplate(folder: BatchRunnerTests.loyalty), builder: PassBuilder(identity: try TestTemplates.identity()),
            options: BatchOptions(outputFolder: output.path))
        let result = try await runner.run(try BatchInput(path: data.path))
        #expect(result.issued == 1 && result.failed == 2)
        let report = try FileIO.read(output.appendingPathComponent("batch-report.csv").path, what: "report")
        #expect(!report.contains(0) && !report.contains(0x1B), "no control character reaches the report")
        let rows = try BatchRunnerTests().readReport(output)
        #expect(
            rows[1][6].hasPrefix("row 1 ") && rows[1][6].contains("column memberName holds the control character U+0000 at character 4"))
        #expect(rows[2][6].contains("column memberName holds the control character U+001B at character 4"), "\(rows[2])")
        #expect(rows[3][2] == "issued")
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("M-00001.pkpass").path))
    }
}
