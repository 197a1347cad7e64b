import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes
import Passmint
import Synchronization

/// Answers the two requests devices repeat most — the serial-number poll and the 304 of the latest-pass endpoint —
/// on the connection's event loop, straight from the service's read cache, when the answer is cached at the store's
/// current generation. Everything else (a cache miss, a 401, a pass to send, odd paths or queries, `Connection: close`)
/// goes on to the router unchanged, which answers exactly as it would have (``DeviceAnswers`` is shared).
///
/// It answers only when no request of the connection is with the router, so responses keep the order of
/// pipelined requests.
final class DeviceFastPath: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

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
                if let body, request.method != .head { context.write(wrapOutboundOut(.body(body)), promise: nil) }
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
    private func answer(_ request: HTTPRequest) -> (HTTPResponse, ByteBuffer?)? {
        guard request.method == .get || request.method == .head, let target = request.path, target.hasPrefix(root) else { return nil }
        if let connection = request.headerFields[.connection]?.lowercased(),
            connection.contains("close") || connection.contains("upgrade")
        {
            return nil  // the router closes or upgrades the connection
        }
        var path = target.dropFirst(root.count)
        var query: Substring?
        if let mark = path.firstIndex(of: "?") {
            query = path[path.index(after: mark)...]
            path = path[..<mark]
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        if let values = WalletRoute.poll.parameters(.pass, in: parts) {
            return poll(device: values[0], type: values[1], query: query)
        }
        if query == nil, let values = WalletRoute.latest.parameters(.pass, in: parts) {
            return notModified(type: values[0], serial: values[1], request: request)
        }
        return nil
    }

    private func poll(device: Substring, type: Substring, query: Substring?) -> (HTTPResponse, ByteBuffer?)? {
        // An order type's list (`orderIdentifiers`) is answered by the router (AppleWebServiceRoutes).
        guard PathComponent.isValid(device), PathComponent.isValid(type), WalletWebService.Kind(typeIdentifier: type) == .pass else {
            return nil
        }
        var sinceText: Substring?
        if let query, !query.isEmpty {
            let name = WalletWebService.Kind.pass.sinceParameter + "="
            guard query.hasPrefix(name) else { return nil }
            sinceText = query.dropFirst(name.count)
        }
        guard case .success(let since) = UpdateTag.since(sinceText),
            let result = reads.cachedUpdatedSerials(device: String(device), passTypeIdentifier: String(type), since: since)
        else { return nil }
        let list = DeviceAnswers.list(result)
        var fields = standardFields()
        guard !list.identifiers.isEmpty else {
            fields[.contentLength] = "0"
            return (HTTPResponse(status: .init(code: WalletWebService.Status.noChanges), headerFields: fields), nil)
        }
        let body = ByteBuffer(bytes: list.bytes)
        fields[.contentType] = "application/json"
        fields[.contentLength] = String(body.readableBytes)
        return (HTTPResponse(status: .init(code: WalletWebService.Status.updated), headerFields: fields), body)
    }

    private func notModified(type: Substring, serial: Substring, request: HTTPRequest) -> (HTTPResponse, ByteBuffer?)? {
        guard PathComponent.isValid(type), PathComponent.isValid(serial),
            let cached = reads.cachedDevicePass(passTypeIdentifier: String(type), serialNumber: String(serial)),
            DeviceAnswers.authorizes(request.headerFields[.authorization], cached.view), let view = cached.view,
            DeviceAnswers.notModified(view, ifModifiedSince: request.headerFields[.ifModifiedSince])
        else { return nil }
        var fields = standardFields()
        fields[.lastModified] = view.lastModified  // and no Content-Length: a 304 may carry only the 200's (RFC 9110 §8.6)
        return (HTTPResponse(status: .notModified, headerFields: fields), nil)
    }

    /// `Date` (computed once a second per connection), `Server` and `X-Content-Type-Options` (``NoSniffMiddleware``),
    /// as the router's responses carry.
    private func standardFields() -> HTTPFields {
        let now = Date()
        let second = Int64(now.timeIntervalSince1970)
        if second != dateSecond {
            dateSecond = second
            dateText = HTTPDate.string(now)
        }
        return [.date: dateText, .server: "passmint", NoSniffMiddleware<ServiceRequestContext>.name: "nosniff"]
    }
}
