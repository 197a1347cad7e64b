import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import Passmint

/// Answers the two requests devices repeat most — the serial-number poll and the 304 of the latest-pass endpoint —
/// on the connection's event loop, straight from the service's read cache, when the answer is cached at the store's
/// current generation. Everything else (a cache miss, a 401, a pass to send, odd paths or queries, `Connection: close`,
/// a field it reads given twice) goes on to the router unchanged, which answers exactly as it would have
/// (``DeviceAnswers`` is shared).
///
/// It sits before the conversion to HTTPTypes (``ServiceHTTPChannel``): it reads NIO's request head (its path and
/// fields as the decoder gave them, matched byte by byte) and writes a response head the encoder takes as it is.
/// It answers only when no request of the connection is with the router, so responses keep the order of
/// pipelined requests.
final class DeviceFastPath: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let reads: DeviceReadCache
    /// `<prefix>/v1/`.
    private let root: String
    /// Requests handed to the router whose response has not ended yet.
    private var withRouter = 0
    /// The current request was answered here: its body and end are dropped.
    private var answered = false
    private var dateSecond: Int64 = -1
    private var dateText = ""

    init(reads: DeviceReadCache, pathPrefix: String) {
        self.reads = reads
        self.root = pathPrefix + "/" + WalletWebService.version + "/"
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            if withRouter == 0, let (head, body) = answer(request) {
                answered = true
                reads.countFastPathAnswer(poll: head.status != .notModified)
                context.write(wrapOutboundOut(.head(head)), promise: nil)
                if let body, request.method != .HEAD { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                return
            }
            withRouter += 1
            context.fireChannelRead(data)
        case .body:
            if !answered { context.fireChannelRead(data) }
        case .end:
            if answered {
                answered = false
            } else {
                context.fireChannelRead(data)
            }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { withRouter = max(0, withRouter - 1) }
        context.write(data, promise: promise)
    }

    /// The response when it can be given from memory; nil to let the router answer.
    private func answer(_ request: HTTPRequestHead) -> (HTTPResponseHead, ByteBuffer?)? {
        guard request.method == .GET || request.method == .HEAD, request.uri.utf8.starts(with: root.utf8),
            let fields = Fields(request.headers), !fields.closesOrUpgrades
        else { return nil }  // the router closes or upgrades the connection, or answers what is unusual
        var path = Substring(request.uri).utf8.dropFirst(root.utf8.count)
        var query: Substring?
        if let mark = path.firstIndex(of: UInt8(ascii: "?")) {
            query = Substring(path[path.index(after: mark)...])
            path = path[..<mark]
        }
        let parts = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { Substring($0) }
        if let values = WalletRoute.poll.parameters(.pass, in: parts) {
            return poll(device: values[0], type: values[1], query: query)
        }
        if query == nil, let values = WalletRoute.latest.parameters(.pass, in: parts) {
            return notModified(type: values[0], serial: values[1], fields: fields)
        }
        return nil
    }

    private func poll(device: Substring, type: Substring, query: Substring?) -> (HTTPResponseHead, ByteBuffer?)? {
        // An order type's list (`orderIdentifiers`) is answered by the router (AppleWebServiceRoutes).
        guard PathComponent.isValid(device), PathComponent.isValid(type), WalletWebService.Kind(typeIdentifier: type) == .pass else {
            return nil
        }
        var sinceText: Substring?
        if let query, !query.isEmpty {
            let name = WalletWebService.Kind.pass.sinceParameter + "="
            guard query.utf8.starts(with: name.utf8) else { return nil }
            sinceText = Substring(query.utf8.dropFirst(name.utf8.count))
        }
        guard case .success(let since) = UpdateTag.since(sinceText),
            let result = reads.cachedUpdatedSerials(device: String(device), passTypeIdentifier: String(type), since: since)
        else { return nil }
        let list = DeviceAnswers.list(result)
        guard !list.identifiers.isEmpty else {
            return (response(.init(statusCode: WalletWebService.Status.noChanges), [(.contentLength, "0")]), nil)
        }
        let body = ByteBuffer(bytes: list.bytes)
        let fields: [(HTTPField.Name, String)] = [(.contentType, "application/json"), (.contentLength, String(body.readableBytes))]
        return (response(.init(statusCode: WalletWebService.Status.updated), fields), body)
    }

    private func notModified(type: Substring, serial: Substring, fields: Fields) -> (HTTPResponseHead, ByteBuffer?)? {
        guard PathComponent.isValid(type), PathComponent.isValid(serial),
            let cached = reads.cachedDevicePass(passTypeIdentifier: String(type), serialNumber: String(serial)),
            DeviceAnswers.authorizes(fields.authorization, cached.view), let view = cached.view,
            DeviceAnswers.notModified(view, ifModifiedSince: fields.ifModifiedSince)
        else { return nil }
        // No Content-Length: a 304 may carry only the 200's (RFC 9110 §8.6).
        return (response(.init(statusCode: WalletWebService.Status.notModified), [(.lastModified, view.lastModified)]), nil)
    }

    /// A response head with `Date` (computed once a second per connection), `Server` and `X-Content-Type-Options`
    /// (``NoSniffMiddleware``), as the router's responses carry, then `fields`; names spelled as the router's
    /// responses reach the encoder.
    private func response(_ status: HTTPResponseStatus, _ fields: [(HTTPField.Name, String)]) -> HTTPResponseHead {
        let now = Date()
        let second = Int64(now.timeIntervalSince1970)
        if second != dateSecond {
            dateSecond = second
            dateText = HTTPDate.string(now)
        }
        var headers = HTTPHeaders()
        headers.reserveCapacity(3 + fields.count)
        headers.add(name: HTTPField.Name.date.rawName, value: dateText)
        headers.add(name: HTTPField.Name.server.rawName, value: "passmint")
        headers.add(name: NoSniffMiddleware<ServiceRequestContext>.name.rawName, value: "nosniff")
        for (name, value) in fields { headers.add(name: name.rawName, value: value) }
        return HTTPResponseHead(version: .http1_1, status: status, headers: headers)
    }

    /// The request fields the fast path reads, found in one pass over the head; nil when one of them is given more
    /// than once (the router reads such a request as a whole).
    struct Fields {
        var authorization: String?
        var ifModifiedSince: String?
        /// `Connection` names `close` or `upgrade`.
        var closesOrUpgrades = false

        init?(_ headers: HTTPHeaders) {
            for (name, value) in headers {
                if Self.named(name, "authorization") {
                    guard authorization == nil else { return nil }
                    authorization = value
                } else if Self.named(name, "if-modified-since") {
                    guard ifModifiedSince == nil else { return nil }
                    ifModifiedSince = value
                } else if Self.named(name, "connection") {
                    let lowered = value.lowercased()
                    closesOrUpgrades = closesOrUpgrades || lowered.contains("close") || lowered.contains("upgrade")
                }
            }
        }

        /// `name` equals `lowercased` (letters and `-`) ignoring ASCII case, without making a new string.
        static func named(_ name: String, _ lowercased: StaticString) -> Bool {
            let expected = UnsafeBufferPointer(start: lowercased.utf8Start, count: lowercased.utf8CodeUnitCount)
            return name.utf8.count == expected.count && zip(name.utf8, expected).allSatisfy { $0 | 0x20 == $1 }
        }
    }
}
