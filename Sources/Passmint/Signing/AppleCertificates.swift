import Foundation

/// Apple's public root and WWDR intermediate certificates, shipped with Passmint (`Certificates/apple/`).
public enum AppleCertificates {
    /// One shipped certificate and the file it came from.
    public struct Entry: Sendable {
        public var file: String
        public var certificate: Certificate
    }

    /// Every shipped certificate, sorted by file name.
    public static let all: [Entry] = {
        guard let folder = Bundle.module.url(forResource: "AppleCertificates", withExtension: nil) else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".pem") }.sorted().compactMap { name in
            (try? Certificate(contentsOf: folder.appendingPathComponent(name).path)).map { Entry(file: name, certificate: $0) }
        }
    }()

    /// Apple Root CA, the anchor of every Pass Type ID certificate.
    public static var rootCA: Certificate? { all.first { $0.file == "AppleRootCA.pem" }?.certificate }

    /// Apple Root CA - G3 (EC), the anchor of Apple Pay's payment token signatures and of WWDR G6.
    public static var rootCAG3: Certificate? { all.first { $0.file == "AppleRootCA-G3.pem" }?.certificate }

    /// The WWDR intermediates of every generation.
    public static var wwdrIntermediates: [Entry] { all.filter { $0.file.hasPrefix("AppleWWDR") } }

    /// The shipped WWDR intermediate that issued `certificate`, if any.
    public static func issuer(of certificate: Certificate) -> Entry? {
        wwdrIntermediates.first { PassSignature.issued($0.certificate, certificate) }
    }
}

extension Certificate {
    /// Whether this certificate issued `certificate` (subject/issuer names and signature match).
    public func issued(_ certificate: Certificate) -> Bool { PassSignature.issued(self, certificate) }
}
