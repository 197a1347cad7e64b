import Foundation
public import Passmint
import Synchronization

extension GoogleWalletStandIn {
    /// Every image address (`sourceUri.uri`) the stored classes and objects name.
    public var imageURIs: [String] {
        state.withLock { state in state.resources.values.flatMap { $0.values.flatMap { Self.imageURIs(in: .object($0)) } } }
    }

    /// The image addresses a class or object names, in order.
    public static func imageURIs(in value: JSONValue) -> [String] {
        switch value {
        case .object(let object):
            let own = object["sourceUri"]?["uri"]?.stringValue.map { [$0] } ?? []
            return own + object.filter { $0.key != "sourceUri" }.flatMap { imageURIs(in: $0.value) }
        case .array(let values): return values.flatMap { imageURIs(in: $0) }
        default: return []
        }
    }

    /// What is wrong with the body's image addresses, with an image prefix: each must be an absolute `https` URL under
    /// the prefix (Google fetches them from the internet).
    func imageProblem(in value: JSONValue) -> String? {
        guard let imagePrefix else { return nil }
        for uri in Self.imageURIs(in: value) {
            guard let url = URL(string: uri), url.scheme == "https", url.host?.isEmpty == false else {
                return "Invalid image URI: \(uri) is not an absolute https URL."
            }
            guard uri.hasPrefix(imagePrefix) else { return "Image URI \(uri) is not served under \(imagePrefix)." }
        }
        return nil
    }
}
