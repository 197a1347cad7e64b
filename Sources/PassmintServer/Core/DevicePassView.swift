import Foundation
import Passmint
public import PassmintStore

/// What the device endpoints need of a stored pass, shared by reference from the read cache.
public final class DevicePassView: Sendable {
    public let pass: StoredPass
    /// `StoredPass.updatedAt` as an HTTP-date, the `Last-Modified` value.
    public let lastModified: String

    init(_ pass: StoredPass) {
        self.pass = pass
        self.lastModified = HTTPDate.string(pass.updatedAt)
    }

    /// Bytes of a typical stored pass's text columns, copied for a decoy as a store row's are decoded.
    private static let decoyText: [UInt8] = Array(repeating: UInt8(ascii: "x"), count: 512)

    /// A view of a pass that does not exist, built with the work a found row costs (its text columns decoded into
    /// strings, its date formatted), so that a device asking about an unknown serial waits as long as one asking
    /// about a known serial with the wrong token: the 401 does not tell which serials exist. Thrown away at once.
    static func decoy(passTypeIdentifier: String, serialNumber: String) -> DevicePassView {
        decoyText.withUnsafeBufferPointer { text in
            func column(_ count: Int) -> String { String(decoding: UnsafeBufferPointer(rebasing: text.prefix(count)), as: UTF8.self) }
            return DevicePassView(
                StoredPass(
                    passTypeIdentifier: column(passTypeIdentifier.utf8.count), serialNumber: column(serialNumber.utf8.count),
                    authenticationToken: column(22), template: column(12), dataJSON: column(decoyText.count), voided: false,
                    updateTag: 0, updatedAt: Date(timeIntervalSince1970: 0)))
        }
    }
}
