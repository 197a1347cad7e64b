import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Passmint
import PassmintStore
import Synchronization
import Testing

@testable import PassmintServer

/// The small parts of the service core: device logs, background work, failures, the API key, tokens and paths.
@Suite struct ServiceSupportTests {
    @Test func deviceLogsKeepTheNewestCutAt2000Characters() {
        let book = DeviceLogBook(limit: 3, logger: Logger(label: "test.logs"))
        book.record(["one", "two"])
        book.record(["three", "four", String(repeating: "z", count: 5000)])
        #expect(book.recent == ["three", "four", String(repeating: "z", count: 2000)])
    }

    @Test func deviceLogsCannotForgeLinesOrSendTerminalEscapes() {
        let book = DeviceLogBook(limit: 10, logger: Logger(label: "test.logs"))
        book.record(["ok\n2026-01-01T00:00:00 critical passmint: forged", "\u{1B}[31mred\u{1B}[0m\r\t\u{85}", "Zoë ✓"])
        #expect(
            book.recent == [
                "ok\\n2026-01-01T00:00:00 critical passmint: forged", "\\u{1B}[31mred\\u{1B}[0m\\r\\t\\u{85}", "Zoë ✓",
            ])
    }

    @Test func deviceLogsAreTakenAtABoundedRate() {
        let book = DeviceLogBook(limit: 1000, logger: Logger(label: "test.logs"), rate: 0.001, burst: 20)
        for _ in 0..<5 { book.record((0..<10).map { "message \($0)" }) }
        #expect(book.recent.count == 20, "the burst, and nothing more until the budget refills")
    }

    @Test func oneNoisyClientDoesNotUseUpWhatOthersMaySend() {
        let book = DeviceLogBook(
            limit: 1000, logger: Logger(label: "test.logs"), rate: 0.001, burst: 100, clientRate: 0.001, clientBurst: 20)
        for _ in 0..<10 { book.record((0..<10).map { "noisy \($0)" }, client: "203.0.113.7") }
        #expect(book.recent.count == 20, "the noisy client's own burst, not everyone's")
        book.record(["from another phone"], client: "198.51.100.2")
        #expect(book.recent.last == "from another phone", "another client still gets through")
        for index in 0..<10 { book.record((0..<10).map { "client \(index) message \($0)" }, client: "192.0.2.\(index)") }
        // Clients 0 to 7 spend the shared budget; 8 and 9, quiet until then, get one message each from the reserve.
        #expect(book.recent.count == 100 + 2, "everyone's budget (and the reserve's one message a quiet client) caps all clients")
    }

    @Test func storeReadinessLetsWaitersGoWhenOpenedAndWhenCancelled() async throws {
        let readiness = StoreReadiness()
        let cancelled = Task { await readiness.wait() }
        while readiness.waiting == 0 { await Task.yield() }  // until it waits
        cancelled.cancel()
        #expect(await cancelled.value == false, "a service stopped before the store was ready does not hang")
        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await readiness.wait()
        }
        #expect(await cancelledFirst.value == false, "nor one stopped before it asked")
        #expect(readiness.waiting == 0)
        let waiting = Task { await readiness.wait() }
        readiness.open()
        #expect(await waiting.value == true)
        #expect(await readiness.wait() == true, "after open, at once")
    }

    /// Hummingbird's `{"error": {"message"}}`, with the failure's code and problems beside the message.
    @Test func aFailureAnswersLikeHummingbirdsOwnErrors() async throws {
        let router = Router()
        router.get("/failure") { _, _ -> Response in throw ServiceFailure.conflict("passes[1]: it exists").prefixed("order: ") }
        router.get("/error") { _, _ -> Response in throw HTTPError(.conflict, message: "order: passes[1]: it exists") }
        router.get("/plain") { _, _ -> Response in throw ServiceFailure.notFound.prefixed("ignored: ") }
        try await Application(router: router).serviceTest(.router) { client in
            let failure = try await client.execute(uri: "/failure", method: .get)
            let error = try await client.execute(uri: "/error", method: .get)
            let failed = try JSONParser.value(Array(failure.body.readableBytesView))
            let hummingbirds = try JSONParser.value(Array(error.body.readableBytesView))
            #expect(failure.status == .conflict && failed["error"]?["message"] == hummingbirds["error"]?["message"])
            #expect(failed["error"]?["code"] == "conflict" && failed["error"]?["problems"] == .array([]))
            #expect(failure.headers[.contentType] == error.headers[.contentType])
            let plain = try await client.execute(uri: "/plain", method: .get)
            #expect(plain.status == .notFound && plain.body.readableBytes == 0)
        }
    }

    @Test func everyIssuingRouteWantsTheAPIKey() async throws {
        try await withStore(.sqlite) { store in
            let core = try ServiceHarness.service(store: store, push: RecordingPushSender())
            try await buildApplication(core: core, logger: Logger(label: "test")).serviceTest(.router) { client in
                let routes: [(String, HTTPRequest.Method)] = [
                    ("/api/v1/passes", .post), ("/api/v1/passes/\(ServiceHarness.passType)/S", .patch), ("/api/v1/bundles", .post),
                    ("/api/v1/passes/\(ServiceHarness.passType)/S", .get), ("/api/v1/passes/\(ServiceHarness.passType)/S", .head),
                    ("/api/v1/logs", .get), ("/api/v1/stats", .get),
                ]
                let wrongKeys: [HTTPFields] = [
                    [:], [.authorization: "Bearer wrong-key-0123456789"], [.authorization: ServiceHarness.apiKey],
                    [.authorization: "Bearer \(ServiceHarness.apiKey)x"],
                ]
                for (uri, method) in routes {
                    for headers in wrongKeys {
                        try await client.execute(uri: uri, method: method, headers: headers, body: ByteBuffer(string: "{}")) {
                            #expect($0.status == .unauthorized, "\(method) \(uri) \(headers)")
                        }
                    }
                }
                try await client.execute(uri: "/api/v1/stats", method: .get, headers: [.authorization: "Bearer \(ServiceHarness.apiKey)"]) {
                    #expect($0.status == .ok)
                }
            }
            var keyless = core.configuration
            keyless.apiKey = nil
            let closed = ServiceCore(configuration: keyless, store: store, push: RecordingPushSender(), logger: Logger(label: "test"))
            try await buildApplication(core: closed, logger: Logger(label: "test")).serviceTest(.router) { client in
                try await client.execute(uri: "/api/v1/stats", method: .get, headers: [.authorization: "Bearer "]) {
                    #expect($0.status == .unauthorized, "no key: the API is closed")
                }
            }
        }
    }

    @Test func tokensCompareWholeAndPathComponentsAreSafe() {
        #expect(TokenComparison.matches("token-0123456789", "token-0123456789"))
        #expect(!TokenComparison.matches("token-012345678", "token-0123456789"))
        #expect(!TokenComparison.matches("token-0123456789x", "token-0123456789"))
        #expect(!TokenComparison.matches("", ""), "an empty token never matches")
        #expect(PathComponent.isValid("pass.dev.passmint.example") && PathComponent.isValid("a:b~c_d-e"))
        #expect(!PathComponent.isValid("") && !PathComponent.isValid("a b") && !PathComponent.isValid("é"))
        #expect(PathComponent.isValid(String(repeating: "x", count: 128)) && !PathComponent.isValid(String(repeating: "x", count: 129)))
    }
}
