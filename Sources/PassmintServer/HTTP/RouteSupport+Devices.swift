import HTTPTypes
import Hummingbird
import Passmint
import PassmintStore

/// What the pass and order web services read and answer alike, by the protocol's one definition (``WalletWebService``).
extension RouteSupport {
    /// The push token of a registration's body (``PushTokenBody``); 400 when the body has none or it is not a token.
    static func pushToken(_ request: Request, limit: Int) async throws -> String {
        let body: PushTokenBody
        do {
            body = try PushTokenBody(json: try await jsonObject(request, limit: limit))
        } catch let error as WalletBodyError {
            throw ServiceFailure.badRequest(error.message)
        }
        guard PathComponent.isValid(body.pushToken) else { throw ServiceFailure.badRequest("the body must be \(PushTokenBody.shape)") }
        return body.pushToken
    }

    /// 201 for a new registration, 200 for one the device had.
    static func status(of result: RegistrationResult) -> HTTPResponse.Status {
        .init(code: result == .created ? WalletWebService.Status.registered : WalletWebService.Status.alreadyRegistered)
    }

    /// The poll's tag (``WalletWebService/Kind/sinceParameter``): nil when absent; 400 when it is not one this service
    /// returned.
    static func since(_ request: Request, _ kind: WalletWebService.Kind) throws(ServiceFailure) -> Int64? {
        let name = kind.sinceParameter
        guard case .success(let since) = UpdateTag.since(request.uri.queryParameters.get(name).map { Substring($0) }) else {
            throw .badRequest("\(name) must be a tag this service returned")
        }
        return since
    }

    /// The poll's answer: 204 without a body when `list` is empty, else 200 with ``UpdatedList``.
    static func updatedList(_ list: UpdatedList) -> Response {
        guard !list.identifiers.isEmpty else { return Response(status: .init(code: WalletWebService.Status.noChanges)) }
        return bytes(list.bytes, type: "application/json", status: .init(code: WalletWebService.Status.updated))
    }
}
