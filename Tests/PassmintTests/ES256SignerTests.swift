import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

@Suite(.computeThreads) struct ES256SignerTests {
    /// A fresh APNs-style auth key: PKCS#8 PEM on P-256, as developer.apple.com hands them out.
    static func makeKey(in folder: URL, name: String = "AuthKey_ABC123DEFG.p8") throws -> (key: URL, publicKey: URL) {
        let key = folder.appendingPathComponent(name)
        let publicKey = folder.appendingPathComponent("public.pem")
        #expect(
            try TestEnvironment.run("openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key.path])
                .status == 0)
        #expect(try TestEnvironment.run("openssl", ["pkey", "-in", key.path, "-pubout", "-out", publicKey.path]).status == 0)
        return (key, publicKey)
    }

    /// DER `ECDSA-Sig-Value` from `r || s`, written here independently of the library.
    static func der(fromRaw raw: [UInt8]) -> [UInt8] {
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if value.isEmpty { value = [0] }
            if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(raw[0..<32]) + integer(raw[32..<64])
        return [0x30, UInt8(body.count)] + body
    }

    @Test func signaturesVerifyWithTheOpenSSLCommand() throws {
        let folder = TestEnvironment.temporaryFolder("es256")
        let (key, publicKey) = try Self.makeKey(in: folder)
        let signer = try ES256Signer(p8Path: key.path)
        let message = Array("eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJURUFNIn0".utf8)
        for round in 0..<8 {  // r or s with a high bit or a leading zero byte come up within a few rounds
            let raw = try signer.sign(message)
            #expect(raw.count == 64)
            try Data(message).write(to: folder.appendingPathComponent("message"))
            try Data(Self.der(fromRaw: raw)).write(to: folder.appendingPathComponent("signature.der"))
            let verified = try TestEnvironment.run(
                "openssl",
                [
                    "dgst", "-sha256", "-verify", publicKey.path, "-signature", folder.appendingPathComponent("signature.der").path,
                    folder.appendingPathComponent("message").path,
                ])
            #expect(verified.status == 0, "round \(round): \(verified.stdout) \(verified.stderr)")
            try Data(message + [0x21]).write(to: folder.appendingPathComponent("message"))
            let tampered = try TestEnvironment.run(
                "openssl",
                [
                    "dgst", "-sha256", "-verify", publicKey.path, "-signature", folder.appendingPathComponent("signature.der").path,
                    folder.appendingPathComponent("message").path,
                ])
            #expect(tampered.status != 0)
        }
    }

    @Test func anRSAKeyIsRefusedWithAClearMessage() throws {
        let chain = try TestEnvironment.devChain()
        #expect {
            try ES256Signer(p8Path: chain.appendingPathComponent("signer.key").path)
        } throws: { error in
            (error as? PassmintError)?.message.contains("not a P-256 EC key") == true
        }
    }

    @Test func base64URLRoundTrips() {
        for bytes: [UInt8] in [[], [0xFB], [0xFB, 0xFF], [0xFB, 0xFF, 0xBF], Array(0...255)] {
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(Base64URL.decode(text) == bytes)
        }
    }
}
