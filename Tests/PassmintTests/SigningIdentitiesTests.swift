import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

/// Several pass types in one certificates folder: loading, choosing the identity by the rendered pass's
/// `passTypeIdentifier`, and the errors that name the type and the folder.
@Suite(.computeThreads) struct SigningIdentitiesTests {
    static let loyalty = "pass.dev.passmint.loyalty"
    static let tickets = "pass.dev.passmint.tickets"

    static func folder() throws -> URL { try TestEnvironment.passTypeFolders(uids: [loyalty, tickets]) }

    /// A template of `type` (the test card with `passTypeIdentifier` set).
    static func template(type: String?) throws -> PassTemplate {
        var json = TestTemplates.passJSON
        if let type {
            json = json.replacingOccurrences(
                of: "\"formatVersion\": 1,", with: "\"formatVersion\": 1, \"passTypeIdentifier\": \"\(type)\",")
        }
        return try PassTemplate(folder: try TestTemplates.write(passJSON: json).path)
    }

    @Test func aFolderOfSubFoldersLoadsOneIdentityPerPassType() throws {
        let identities = try CertificatesFolder(path: try Self.folder().path).load(passphrase: nil)
        #expect(identities.passTypeIdentifiers == [Self.loyalty, Self.tickets])
        #expect(try identities.identity(for: Self.tickets).certificate.userID == Self.tickets)
        #expect(identities.sole == nil)
    }

    @Test func eachPassIsSignedByItsTypesCertificate() throws {
        let identities = try CertificatesFolder(path: try Self.folder().path).load(passphrase: nil)
        let builder = PassBuilder(identities: identities)
        let root = try Certificate(contentsOf: try Self.folder().appendingPathComponent("root.pem").path)
        for type in [Self.loyalty, Self.tickets] {
            let pass = try builder.sign(PassInput(template: try Self.template(type: type), data: TestTemplates.data))
            #expect(pass.passTypeIdentifier == type)
            let report = PassVerifier(root: root).verify(pass.archive, source: type)
            #expect(report.isValid, "\(report.checks.filter { $0.status == .failed })")
            #expect(report.signature?.signer?.derBytes == (try identities.identity(for: type)).certificate.derBytes)
        }
    }

    @Test func aTypeWithNoIdentityNamesTheTypeAndTheFolder() throws {
        let folder = try Self.folder().path
        let builder = PassBuilder(identities: try CertificatesFolder(path: folder).load(passphrase: nil))
        #expect {
            try builder.sign(PassInput(template: try Self.template(type: "pass.dev.passmint.lounge"), data: TestTemplates.data))
        } throws: { error in
            let message = (error as? PassmintError)?.message ?? ""
            return message.contains("\"pass.dev.passmint.lounge\"") && message.contains(folder + "/pass.dev.passmint.lounge/")
        }
    }

    @Test func aPassWithoutATypeNeedsOneWhenThereAreSeveral() throws {
        let builder = PassBuilder(identities: try CertificatesFolder(path: try Self.folder().path).load(passphrase: nil))
        #expect {
            try builder.sign(PassInput(template: try Self.template(type: nil), data: TestTemplates.data))
        } throws: { error in
            (error as? PassmintError)?.message.contains("set passTypeIdentifier") == true
        }
    }

    @Test func theSingleIdentityLayoutStillWorksAndFillsTheType() throws {
        let chain = try TestEnvironment.devChain()
        let identities = try CertificatesFolder(path: chain.path).load(passphrase: nil)
        #expect(identities.passTypeIdentifiers == ["pass.dev.passmint.example"])
        let pass = try PassBuilder(identities: identities).sign(PassInput(template: try Self.template(type: nil), data: TestTemplates.data))
        #expect(pass.passTypeIdentifier == "pass.dev.passmint.example")
    }

    @Test func aTopLevelIdentityAndSubFoldersLoadTogether() throws {
        let folder = TestEnvironment.temporaryFolder("mixed")
        let chain = try TestEnvironment.devChain()
        for name in ["signer.pem", "signer.key", "wwdr.pem"] {
            try FileManager.default.copyItem(at: chain.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        try FileManager.default.copyItem(
            at: try Self.folder().appendingPathComponent(Self.tickets), to: folder.appendingPathComponent(Self.tickets))
        // Folders not named pass.* (Apple's certificates, a development chain) are left alone.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("apple"), withIntermediateDirectories: true)
        let identities = try CertificatesFolder(path: folder.path).load(passphrase: nil)
        #expect(identities.passTypeIdentifiers == ["pass.dev.passmint.example", Self.tickets])
        #expect(identities.all.first?.certificate.userID == "pass.dev.passmint.example")
    }

    @Test func aSubFolderHoldingAnotherTypesCertificateIsRefused() throws {
        let folder = TestEnvironment.temporaryFolder("misfiled")
        try FileManager.default.copyItem(
            at: try Self.folder().appendingPathComponent(Self.tickets), to: folder.appendingPathComponent("pass.dev.passmint.lounge"))
        #expect {
            try CertificatesFolder(path: folder.path).load(passphrase: nil)
        } throws: { error in
            let message = (error as? PassmintError)?.message ?? ""
            return message.contains("named for pass.dev.passmint.lounge") && message.contains("move it to \(folder.path)/\(Self.tickets)/")
        }
    }

    @Test func anEmptyTypeFolderAndAnEmptyFolderSayWhatToPutThere() throws {
        let folder = TestEnvironment.temporaryFolder("empty")
        #expect {
            try CertificatesFolder(path: folder.path).load(passphrase: nil)
        } throws: { error in
            (error as? PassmintError)?.message.contains("no signing identity in \(folder.path)/") == true
        }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(Self.loyalty), withIntermediateDirectories: true)
        #expect {
            try CertificatesFolder(path: folder.path).load(passphrase: nil)
        } throws: { error in
            (error as? PassmintError)?.message.contains("\(Self.loyalty)/ holds no signing identity") == true
        }
    }

    @Test func twoCertificatesForOneTypeAreRefused() throws {
        let identity = try TestTemplates.identity()
        #expect(throws: PassmintError.self) { try SigningIdentities([identity, identity], source: "here") }
    }
}
