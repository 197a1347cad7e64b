import Foundation
import NIOSSL

/// A throw-away TLS server certificate for `localhost` and `127.0.0.1` (P-256, made with `openssl` at test time), for
/// the stand-ins that speak TLS: its key and certificate are written to `folder` as `<name>.key` and `<name>.pem`.
struct ServerCertificate {
    let certificate: NIOSSLCertificate
    /// The certificate's PEM file, for a client to trust.
    let file: URL
    private let key: NIOSSLPrivateKey

    init(folder: URL, name: String) throws {
        let keyFile = folder.appendingPathComponent("\(name).key").path
        file = folder.appendingPathComponent("\(name).pem")
        let made = try TestEnvironment.run(
            "openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", keyFile, "-out", file.path,
                "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            ])
        guard made.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: made.stderr]) }
        guard let loaded = try NIOSSLCertificate.fromPEMFile(file.path).first else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "no certificate in \(file.path)"])
        }
        certificate = loaded
        key = try NIOSSLPrivateKey(file: keyFile, format: .pem)
    }

    /// A server configuration with this certificate; with `clientCA` (a PEM file), a client must present a certificate
    /// that CA issued, else none is asked for.
    func serverConfiguration(clientCA: String?) throws -> TLSConfiguration {
        var tls = TLSConfiguration.makeServerConfiguration(certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
        if let clientCA {
            tls.certificateVerification = .noHostnameVerification
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(clientCA))
        }
        return tls
    }
}
