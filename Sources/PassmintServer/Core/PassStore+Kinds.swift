import HTTPTypes
import Passmint
import PassmintStore

/// Passes and orders are documents of one store, told apart by their type identifier's kind
/// (``WalletWebService/Kind/init(typeIdentifier:)``: order types begin with `order.`). Every service reads a document
/// through this one check, so an order row is never treated as a pass, nor a pass row as an order.
extension PassStore {
    /// The stored document `type` / `serial` when it is of `kind`; nil when there is none of that kind (what the
    /// device web services answer from, saying nothing more).
    func document(_ kind: WalletWebService.Kind, _ type: String, _ serial: String) async throws -> StoredPass? {
        guard WalletWebService.Kind(typeIdentifier: type) == kind else { return nil }
        return try await pass(passTypeIdentifier: type, serialNumber: serial)
    }

    /// The stored document `type` / `serial` of `kind`; 404 when there is none, naming the other kind when `type` is of
    /// it (``ServiceFailure/notFound(_:typeIdentifier:)``).
    func existing(_ kind: WalletWebService.Kind, _ type: String, _ serial: String) async throws -> StoredPass {
        guard let found = try await document(kind, type, serial) else { throw ServiceFailure.notFound(kind, typeIdentifier: type) }
        return found
    }
}

extension ServiceFailure {
    /// 404 for a `kind` that is not there; when `type` is of the other kind, the message says so and where that kind
    /// is served (an order's type on a pass path: the orders API).
    static func notFound(_ kind: WalletWebService.Kind, typeIdentifier type: String) -> ServiceFailure {
        let named = WalletWebService.Kind(typeIdentifier: type)
        guard named != kind else { return .notFound }
        func article(_ kind: WalletWebService.Kind) -> String { kind == .order ? "an order" : "a pass" }
        let path = named == .order ? "/api/v1/orders" : "/api/v1/passes"
        return ServiceFailure(.notFound, "\(type) is \(article(named)) type, not \(article(kind)) type: \(path)/\(type)/… serves it")
    }
}
