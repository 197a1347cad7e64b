package import Hummingbird
package import NIOCore

/// The context of each request the service answers: Hummingbird's core context and the address of the client, by
/// which the device log endpoint budgets what each client may send.
package struct ServiceRequestContext: RequestContext, RemoteAddressRequestContext {
    package var coreContext: CoreRequestContextStorage
    /// The peer of the connection (a proxy's address when the service runs behind one).
    package let remoteAddress: SocketAddress?

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

extension ServiceRequestContext {
    /// The client's IP address as text, without the port (nil when unknown).
    var clientAddress: String? { remoteAddress?.ipAddress }
}
