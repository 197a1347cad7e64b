import Foundation
import HTTPTypes
import NIOCore
import Passmint
import PassmintStore

/// The answers of the endpoints devices call most, shared by the router and ``DeviceFastPath`` so that both say
/// exactly the same thing.
enum DeviceAnswers {
    /// True when `authorization` carries the pass's (or order's: `kind`) token in the kind's scheme, compared in
    /// constant time (also when there is none). The token is the secret; a serial number is not (see docs/service.md,
    /// "What a 401 tells").
    static func authorizes(_ authorization: String?, _ view: DevicePassView?, _ kind: WalletWebService.Kind = .pass) -> Bool {
        let presented = kind.presentedToken(authorization)
        let matches = TokenComparison.matches(String(presented ?? ""), view?.pass.authenticationToken ?? "no pass here, compared anyway")
        return view != nil && presented != nil && matches
    }

    /// The poll's answer (``UpdatedList``): the serials (or order identifiers), and the tag as a string.
    static func list(_ result: UpdatedSerials, _ kind: WalletWebService.Kind = .pass) -> UpdatedList {
        UpdatedList(kind: kind, identifiers: result.serialNumbers, tag: String(result.lastUpdated))
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
