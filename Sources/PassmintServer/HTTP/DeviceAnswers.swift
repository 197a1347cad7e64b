import Foundation
import HTTPTypes
import NIOCore
import Passmint
import PassmintStore

/// The answers of the endpoints devices call most, shared by the router and ``DeviceFastPath`` so that both say
/// exactly the same thing.
enum DeviceAnswers {
    /// The token of `ApplePass <token>` or `AndroidPass <token>`.
    static func presentedToken(_ header: String?) -> Substring? {
        guard let header else { return nil }
        for scheme in ["ApplePass ", "AndroidPass "] where header.hasPrefix(scheme) {
            var token = Substring(header).dropFirst(scheme.count)
            while token.first == " " { token = token.dropFirst() }
            while token.last == " " { token = token.dropLast() }
            return token.isEmpty ? nil : token
        }
        return nil
    }

    /// True when `authorization` carries the pass's token, compared in constant time (also when there is no pass).
    /// The token is the secret; a serial number is not (see docs/service.md, "What a 401 tells").
    static func authorizes(_ authorization: String?, _ view: DevicePassView?) -> Bool {
        let presented = presentedToken(authorization)
        let matches = TokenComparison.matches(String(presented ?? ""), view?.pass.authenticationToken ?? "no pass here, compared anyway")
        return view != nil && presented != nil && matches
    }

    /// `passesUpdatedSince`: nil when absent or empty; `.failure` when it is not a tag this service returned.
    static func since(_ text: Substring?) -> Result<Int64?, BadTag> {
        guard let text, !text.isEmpty else { return .success(nil) }
        guard let value = Int64(text) else { return .failure(BadTag()) }
        return .success(value)
    }

    struct BadTag: Error {}

    /// The poll's answer: 204 when nothing changed, else 200 with `{"serialNumbers": [...], "lastUpdated": "<tag>"}`.
    static func poll(_ result: UpdatedSerials) -> (status: HTTPResponse.Status, body: ByteBuffer?) {
        guard !result.serialNumbers.isEmpty else { return (.noContent, nil) }
        var body = ByteBuffer()
        body.writeString(#"{"serialNumbers":["#)
        for (index, serial) in result.serialNumbers.enumerated() {
            if index > 0 { body.writeString(",") }
            if PathComponent.isValid(serial) {  // letters, digits and . _ - : ~: nothing JSON escapes
                body.writeString("\"")
                body.writeString(serial)
                body.writeString("\"")
            } else {
                body.writeBytes(JSONWriter.data(.string(serial), style: .compact))
            }
        }
        body.writeString(#"],"lastUpdated":""#)
        body.writeString(String(result.lastUpdated))
        body.writeString("\"}")
        return (.ok, body)
    }

    /// True when `If-Modified-Since` is not older than the pass's last change (answer 304). Devices send back the
    /// `Last-Modified` they were given, so equal text needs no date parsing. A date that is not an HTTP-date, or that
    /// lies in the future (a client clock ahead, or a forged header), is ignored as RFC 9110 asks: the pass is sent.
    static func notModified(_ view: DevicePassView, ifModifiedSince: String?, now: Date? = nil) -> Bool {
        guard let header = ifModifiedSince else { return false }
        if header == view.lastModified { return true }  // the common case: no date parsing, no clock read
        let now = now ?? Date()
        guard let date = HTTPDate.parse(header, now: now), date <= now else { return false }
        return date >= view.pass.updatedAt
    }
}
