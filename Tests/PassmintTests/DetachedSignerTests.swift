import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

/// The detached signature laid out once per identity (``DetachedSigner``) against OpenSSL's PKCS#7 layer.
@Suite(.computeThreads) struct DetachedSignerTests {
    @Test func writesTheBytesOpenSSLWritesForTheSameSigningTime() throws {
        let identity = try TestTemplates.identity()
        let signer = try #require(
            DetachedSigner(certificate: identity.certificate, key: identity.privateKey, intermediates: identity.intermediates))
        let manifest = Array(#"{"icon.png":"0123456789abcdef0123456789abcdef01234567","pass.json":"89ab"}"#.utf8)
        for date in [Date(timeIntervalSince1970: 1_764_000_000), Date(timeIntervalSince1970: 2_524_607_999)] {
            let fast = try #require(signer.sign(manifest, at: date))
            let reference = try identity.openSSLSignDetached(manifest, signingTime: date)
            #expect(fast == reference, "\(date)")
        }
    }

    @Test func signaturesVerifyAndDifferOnlyWhereTheyShould() throws {
        let identity = try TestTemplates.identity()
        let template = try PassTemplate(folder: TestTemplates.write().path)
        let pass = try PassBuilder(identity: identity).sign(PassInput(template: template, data: TestTemplates.data))
        #expect(PassVerifier().verify(pass.archive, source: "fast.pkpass").isValid)
        // Two manifests signed at the same second share everything but the digest and the RSA signature.
        let signer = try #require(
            DetachedSigner(certificate: identity.certificate, key: identity.privateKey, intermediates: identity.intermediates))
        let date = Date()
        let first = try #require(signer.sign(Array("a".utf8), at: date))
        let second = try #require(signer.sign(Array("b".utf8), at: date))
        #expect(first.count == second.count)
        #expect(zip(first, second).filter { $0 != $1 }.count > 32)
    }

    @Test func timesOutsideUTCTimeGoThroughOpenSSL() {
        #expect(DetachedSigner.utcTime(Date(timeIntervalSince1970: 2_524_607_999)) == Array("491231235959Z".utf8))
        #expect(DetachedSigner.utcTime(Date(timeIntervalSince1970: 2_524_608_000)) == nil, "2050 is a GeneralizedTime")
        #expect(DetachedSigner.utcTime(Date(timeIntervalSince1970: -631_152_001)) == nil, "1949 too")
    }

    @Test func derLengthsUseTheShortestForm() {
        #expect(DER.header(0x30, 0x7F) == [0x30, 0x7F])
        #expect(DER.header(0x30, 0x80) == [0x30, 0x81, 0x80])
        #expect(DER.header(0x30, 2768) == [0x30, 0x82, 0x0A, 0xD0])
    }
}
