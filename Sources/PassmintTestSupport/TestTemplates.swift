public import Foundation
public import Passmint

/// Small templates written to temporary folders for tests.
public enum TestTemplates {
    public static let passJSON = """
        {
          "formatVersion": 1,
          "serialNumber": "{{serialNumber}}",
          "organizationName": "Passmint Tests",
          "description": "Test card",
          "foregroundColor": "rgb(255, 255, 255)",
          "backgroundColor": "rgb(20, 120, 90)",
          "barcodes": [{"format": "PKBarcodeFormatQR", "message": "{{serialNumber}}", "messageEncoding": "iso-8859-1"}],
          "storeCard": {
            "primaryFields": [{"key": "points", "label": "Points", "value": "{{points}}"}],
            "secondaryFields": [{"key": "name", "label": "Member", "value": "Dear {{name}}"}]
          },
          "futureKey": {"kept": true}
        }
        """

    /// Base64 DER SubjectPublicKeyInfo of an EC P-256 key (its private key was discarded).
    public static let p256PublicKey =
        "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEBzyGY9ztxTXnI1WyVtUcWMq3JjAsDBhFjZsyBsptdS4Wwksx+nnAxzk4U03w/GvPE+b39bfRw7UnJ852hz189g=="

    public static let data: JSONObject = ["serialNumber": "S-1", "points": 1250, "name": "Zoë Müller"]

    public static func png(width: Int, height: Int) -> [UInt8] { TestPNG.make(width: width, height: height) }

    /// Writes a template folder; `files` maps relative paths to bytes (default: icon at three scales).
    public static func write(passJSON: String = passJSON, files: [String: [UInt8]]? = nil) throws -> URL {
        let folder = TestEnvironment.temporaryFolder("template").appendingPathComponent("Test.pass")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(passJSON.utf8).write(to: folder.appendingPathComponent("pass.json"))
        let images =
            files ?? [
                "icon.png": png(width: 38, height: 38), "icon@2x.png": png(width: 76, height: 76),
                "icon@3x.png": png(width: 114, height: 114),
            ]
        for (path, bytes) in images {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        return folder
    }

    public static func identity(uid: String = "pass.dev.passmint.example", team: String = "DEVTEAM123", expired: Bool = false) throws
        -> SigningIdentity
    {
        let chain = try TestEnvironment.devChain(uid: uid, team: team, expired: expired)
        return try SigningIdentity(
            certificatePath: chain.appendingPathComponent("signer.pem").path, keyPath: chain.appendingPathComponent("signer.key").path,
            passphrase: nil, wwdrPath: chain.appendingPathComponent("wwdr.pem").path)
    }
}
