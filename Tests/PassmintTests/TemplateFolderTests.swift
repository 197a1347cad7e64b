import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

/// Template folders read like strangers' files (issue 40, item 1): before, every file was read whole with symbolic
/// links followed, so a link shipped a signing key, `/proc/self/environ` or another folder in every pass,
/// `icon.png -> /dev/zero` grew memory without end, a FIFO blocked for ever, and unknown files were shipped with a
/// warning. Each case here loaded (or hung) before the fix.
@Suite(.computeThreads) struct TemplateFolderTests {
    /// Loads the template and returns the error it throws, failing when it loads.
    func refusal(_ folder: URL) -> PassmintError? {
        do {
            let template = try PassTemplate(folder: folder.path)
            Issue.record("loaded with \(template.files.map(\.path))")
            return nil
        } catch {
            return error
        }
    }

    func expectRefused(_ folder: URL, naming name: String, saying words: String) {
        let error = refusal(folder)
        #expect(error?.code == .invalidTemplate, "\(String(describing: error))")
        #expect(error?.message.contains(folder.path + "/" + name) == true, "\(String(describing: error))")
        #expect(error?.message.contains(words) == true, "\(String(describing: error))")
        #expect(error?.message.contains(HostileTemplates.secretMarker) != true)
    }

    @Test func aLinkToAKeyOutsideTheFolderIsRefusedNotShipped() throws {
        let folder = try TestTemplates.write()
        try HostileTemplates.link("notes.txt", in: folder, to: try HostileTemplates.secretOutside().path)
        expectRefused(folder, naming: "notes.txt", saying: "symbolic link")
        #expect(refusal(folder)?.message.contains("copy the file itself into the template") == true)
        // A link named like an image, to a real PNG outside, is refused the same way: no link is followed.
        let image = try TestTemplates.write()
        let outside = TestEnvironment.temporaryFolder("outside").appendingPathComponent("logo.png")
        try Data(TestTemplates.png(width: 160, height: 50)).write(to: outside)
        try HostileTemplates.link("logo.png", in: image, to: outside.path)
        expectRefused(image, naming: "logo.png", saying: "symbolic link")
    }

    @Test func aLinkToTheProcessEnvironmentIsRefused() throws {
        let folder = try TestTemplates.write()
        try HostileTemplates.link("env.txt", in: folder, to: "/proc/self/environ")
        expectRefused(folder, naming: "env.txt", saying: "symbolic link")
    }

    @Test func aLinkedLprojFolderIsRefusedAndSoIsALinkInsideOne() throws {
        let folder = try TestTemplates.write()
        try HostileTemplates.link("fr.lproj", in: folder, to: try HostileTemplates.folderOutside().path)
        expectRefused(folder, naming: "fr.lproj", saying: "symbolic link")
        let inner = try TestTemplates.write(
            files: LocalizationTests.icons.merging(["de.lproj/pass.strings": Array("\"A\" = \"B\";".utf8)]) { $1 })
        try HostileTemplates.link("logo.png", in: inner.appendingPathComponent("de.lproj"), to: try HostileTemplates.secretOutside().path)
        expectRefused(inner, naming: "de.lproj/logo.png", saying: "symbolic link")
    }

    @Test func anIconLinkedToDevZeroIsRefusedWithoutReadingIt() throws {
        let folder = try TestTemplates.write(files: [:])
        try HostileTemplates.link("icon.png", in: folder, to: "/dev/zero")
        expectRefused(folder, naming: "icon.png", saying: "symbolic link")
    }

    @Test(.enabled(if: getuid() == 0, "making a device node needs root"))
    func aDeviceNodeInTheFolderIsRefusedWithoutReadingIt() throws {
        let folder = try TestTemplates.write(files: [:])
        let path = folder.appendingPathComponent("icon.png").path
        try #require(mknod(path, S_IFCHR | 0o666, dev_t(1 << 8 | 5)) == 0)  // /dev/zero: major 1, minor 5
        expectRefused(folder, naming: "icon.png", saying: "not a regular file")
    }

    @Test func aFIFOAsLogoIsRefusedWithoutOpeningIt() throws {
        let folder = try TestTemplates.write()
        try HostileTemplates.fifo("logo.png", in: folder)
        expectRefused(folder, naming: "logo.png", saying: "not a regular file")
    }

    /// The reader's second line, should a file change between the listing and the open: what was opened is checked.
    @Test func theRegularFileReaderRefusesDevicesFIFOsAndLinksWithoutBlocking() throws {
        #expect(throws: FileIO.RegularFileRefusal.notRegular) { try FileIO.readRegularFile("/dev/zero", maximumBytes: 1 << 20) }
        let folder = TestEnvironment.temporaryFolder("regular")
        let fifo = try HostileTemplates.fifo("pipe", in: folder)
        #expect(throws: FileIO.RegularFileRefusal.notRegular) { try FileIO.readRegularFile(fifo.path, maximumBytes: 1 << 20) }
        let link = try HostileTemplates.link("link", in: folder, to: try HostileTemplates.secretOutside().path)
        #expect(throws: FileIO.RegularFileRefusal.symbolicLink) { try FileIO.readRegularFile(link.path, maximumBytes: 1 << 20) }
        let large = try HostileTemplates.sparse("large", bytes: 5 << 20, in: folder)
        #expect(throws: FileIO.RegularFileRefusal.tooLarge(size: 5 << 20)) { try FileIO.readRegularFile(large.path, maximumBytes: 4 << 20) }
    }

    @Test func anImageOverItsLimitIsRefusedFromItsSize() throws {
        let folder = try TestTemplates.write()
        try HostileTemplates.sparse("strip@3x.png", bytes: 5 << 20, in: folder)
        expectRefused(folder, naming: "strip@3x.png", saying: "an image of a template may weigh")
    }

    @Test func aFileWalletDoesNotReadIsRefusedByTemplatesAndAnErrorInLint() throws {
        let folder = try TestTemplates.write()
        try Data("internal notes".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        expectRefused(folder, naming: "notes.txt", saying: "not a file Wallet reads in a pass")
        let lint = PassLinter.lint(try PassContents.load(folder: folder.path))
        #expect(lint.contains { $0.code == "file-unknown" && $0.severity == .error && $0.file == "notes.txt" }, "\(lint)")
        // Lint lists it without reading it.
        #expect(try PassContents.load(folder: folder.path).files.first { $0.path == "notes.txt" }?.bytes == [])
    }

    @Test func lintRefusesTheSameLinksAndFIFOs() throws {
        let folder = try TestTemplates.write()
        try HostileTemplates.link("notes.txt", in: folder, to: try HostileTemplates.secretOutside().path)
        #expect(throws: PassmintError.self) { try PassContents.load(folder: folder.path) }
        let fifo = try TestTemplates.write()
        try HostileTemplates.fifo("logo.png", in: fifo)
        #expect(throws: PassmintError.self) { try PassContents.load(folder: fifo.path) }
    }

    // MARK: Orders

    /// A copy of the repository's `StorePickup.order`.
    func orderTemplate() throws -> URL {
        let folder = TestEnvironment.temporaryFolder("order").appendingPathComponent("StorePickup.order")
        try FileManager.default.copyItem(
            at: TestEnvironment.repositoryRoot.appendingPathComponent("OrderTemplates/StorePickup.order"), to: folder)
        return folder
    }

    func expectOrderRefused(_ folder: URL, naming name: String, saying words: String) {
        do {
            let template = try OrderTemplate(folder: folder.path)
            Issue.record("loaded with \(template.files.map(\.path))")
        } catch {
            #expect(error.code == .invalidTemplate, "\(error)")
            #expect(error.message.contains(folder.path + "/" + name) && error.message.contains(words), "\(error)")
        }
    }

    @Test func orderTemplatesRefuseLinksFIFOsAndUnknownFiles() throws {
        let key = try orderTemplate()
        try HostileTemplates.link("notes.txt", in: key, to: try HostileTemplates.secretOutside().path)
        expectOrderRefused(key, naming: "notes.txt", saying: "symbolic link")
        let environment = try orderTemplate()
        try HostileTemplates.link("banner@2x.png", in: environment, to: "/proc/self/environ")
        expectOrderRefused(environment, naming: "banner@2x.png", saying: "symbolic link")
        let localized = try orderTemplate()
        try HostileTemplates.link("fr.lproj", in: localized, to: try HostileTemplates.folderOutside().path)
        expectOrderRefused(localized, naming: "fr.lproj", saying: "symbolic link")
        let fifo = try orderTemplate()
        try HostileTemplates.fifo("banner.png", in: fifo)
        expectOrderRefused(fifo, naming: "banner.png", saying: "not a regular file")
        let unknown = try orderTemplate()
        try Data("notes".utf8).write(to: unknown.appendingPathComponent("notes.txt"))
        expectOrderRefused(unknown, naming: "notes.txt", saying: "not a file Wallet reads in an order")
        #expect(try OrderTemplate(folder: try orderTemplate().path).files.count > 0, "the template itself still loads")
    }

    // MARK: Sample data

    @Test func sampleDataIsReadUnderTheSameRules() throws {
        let folder = TestEnvironment.temporaryFolder("samples")
        let link = try HostileTemplates.link("Test.json", in: folder, to: "/proc/self/environ")
        #expect(throws: PassmintError.self) { try TemplateFolder.file(link.path, kind: .json, what: "sample data") }
        let fifo = try HostileTemplates.fifo("Other.json", in: folder)
        #expect(throws: PassmintError.self) { try TemplateFolder.file(fifo.path, kind: .json, what: "sample data") }
    }
}
