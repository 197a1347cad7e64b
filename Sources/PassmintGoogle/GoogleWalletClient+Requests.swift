import Foundation
import Passmint
import PassmintHTTP

extension GoogleWalletClient {
    /// Sends one API request with a bearer token, retrying 429 and 5xx (from the API or the token endpoint) and an
    /// unreachable Google after the wait ``GoogleRetry`` gives, and once with a new token after a 401. Other answers
    /// are returned as they are.
    func request(_ method: String, path: String, body: JSONObject?) async throws(GoogleWalletError) -> GoogleHTTP.Response {
        let url = objectsURL + "/" + path
        let bytes = body.map { JSONWriter.data(.object($0), style: .compact) }
        var renewedToken = false
        var attempt = 0
        while true {
            attempt += 1
            var retryAfter: String?
            do throws(GoogleWalletError) {
                // A token endpoint answering 429 or 5xx is waited for like the API.
                let token = try await tokens.token()
                var headers = [("authorization", "Bearer \(token)")]
                if bytes != nil { headers.append(("content-type", "application/json; charset=utf-8")) }
                let response = try await http.send(method, url, headers: headers, body: bytes)
                if response.status == 401, !renewedToken {
                    renewedToken = true
                    await tokens.invalidate()
                    attempt -= 1
                    continue
                }
                guard GoogleRetry.retries(response.status) else { return response }
                retryAfter = response.header("retry-after")
                if attempt >= retry.maxAttempts {
                    throw GoogleWalletError(
                        .unavailable,
                        "Google answered \(response.status) to \(method) \(path) \(attempt) times: try again later", status: response.status
                    )
                }
            } catch  where error.code == .unavailable && attempt < retry.maxAttempts {
                retryAfter = nil
            }
            do {
                try await retry.sleep(retry.delay(after: attempt, retryAfter: retryAfter, now: now()))
            } catch {
                throw GoogleWalletError(.unavailable, "stopped waiting to retry \(method) \(path): \(error)")
            }
        }
    }
}
