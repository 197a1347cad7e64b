import Foundation
import HTTPTypes
import HummingbirdTesting
import PassmintServer
import PassmintStore
import Testing

/// A 304 carries no `Content-Length` (RFC 9110 §8.6 allows there only the length the 200 would have had), whether the
/// router or the fast path answers it: read from the raw bytes of the response.
@Suite struct NotModifiedTests {
    @Test func a304CarriesNoContentLengthFromTheRouterNorFromMemory() async throws {
        try await DeviceFastPathTests().withRegisteredPass { service, client, serial, token, _, store in
            let port = try #require(client.port)
            let path = "/wallet/v1/passes/\(ServiceHarness.passType)/\(serial)"
            let lastModified = try #require(
                try await client.execute(uri: path, method: .get, headers: [.authorization: "ApplePass \(token)"]).headers[.lastModified])
            // The conditional GET on a connection kept open (the fast path leaves `Connection: close` to the router),
            // then a request that closes it.
            let text =
                "GET \(path) HTTP/1.1\r\nHost: x\r\nAuthorization: ApplePass \(token)\r\nIf-Modified-Since: \(lastModified)\r\n\r\n"
                + "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            // Any commit makes the cached answer stale: the first 304 comes from the router, the second from memory. The
            // service commits on its own too (its first prune round runs as it starts): a pair such a commit fell
            // between is taken again.
            var pairs = 0
            var fromRouter = ""
            var fromMemory = ""
            while true {
                pairs += 1
                _ = try await service.registrations.register(
                    device: unique("other"), pushToken: "00ff", passTypeIdentifier: "pass.other", serialNumber: "x")
                let generation = store.changeGeneration
                let before = service.deviceReads.fastPathAnswers
                fromRouter = try await DeviceFastPathTests.exchangeOffPool(port: port, text)
                #expect(service.deviceReads.fastPathAnswers == before)
                fromMemory = try await DeviceFastPathTests.exchangeOffPool(port: port, text)
                let answers = service.deviceReads.fastPathAnswers
                if store.changeGeneration != generation && answers == before && pairs < 10 { continue }
                #expect(answers == before + 1)
                break
            }
            for (answeredBy, answer) in [("the router", fromRouter), ("the fast path", fromMemory)] {
                let head = answer.components(separatedBy: "\r\n\r\n")[0].lowercased()
                #expect(head.hasPrefix("http/1.1 304 not modified"), "\(answeredBy): \(answer)")
                #expect(head.contains("last-modified: \(lastModified.lowercased())"), "\(answeredBy): \(head)")
                #expect(!head.contains("content-length"), "\(answeredBy): \(head)")
                #expect(!head.contains("transfer-encoding"), "\(answeredBy): \(head)")
            }
        }
    }
}
