/// What signs each thing it builds with the identity for its type (``PassBuilder``, ``OrderBuilder``): made with the
/// identities of every type, or with one identity for everything.
public protocol SigningBuilder: Sendable {
    associatedtype Options: Sendable

    /// The options of a builder made without any.
    static var defaultOptions: Options { get }

    /// A builder that signs each thing with the identity for its type (see ``SigningIdentities``).
    init(identities: SigningIdentities, options: Options)
}

extension SigningBuilder {
    /// A builder that signs everything with `identity`.
    public init(identity: SigningIdentity, options: Options = Self.defaultOptions) {
        self.init(identities: SigningIdentities(identity), options: options)
    }
}
