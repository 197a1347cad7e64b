import Foundation
import Hummingbird
import NIOCore
import Passmint
import PassmintStore

/// Bulk changes in the issuing API, behind ``APIKeyMiddleware``: `POST /api/v1/updates` (a JSON Lines body, read as
/// it streams in), `POST /api/v1/templates/{name}/publish`, and the jobs they start.
struct JobRoutes {
    let core: ServiceCore

    /// Adds the routes to `api`, the `/api/v1` group behind ``APIKeyMiddleware`` (``buildRouter(core:)``).
    func register(on api: RouterGroup<ServiceRequestContext>) {
        api.post("updates") { request, _ in try await upload(request) }
        api.post("templates/:name/publish") { request, context in try await publish(request, context) }
        api.get("jobs") { _, _ in RouteSupport.json(.ok, .array(await core.jobs.allJobs().map { .object($0.json) })) }
        api.get("jobs/:id") { _, context in try await job(context) }
        api.get("jobs/:id/failures") { _, context in try await failures(context) }
    }

    /// The body goes to the jobs folder as it arrives; 202 with the job once the upload is durable.
    private func upload(_ request: Request) async throws -> Response {
        try answer(.accepted, await core.jobs.receive(request.body))
    }

    /// `{"data": {…}, "purgeUnused": true}` (optional): values set on every pass; the stored data keys the template does
    /// not use dropped.
    private func publish(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        guard let name = context.parameters.get("name") else { throw ServiceFailure.notFound }
        var request = request
        let body = try await request.collectBody(upTo: core.configuration.maxBodySize)
        var data: JSONObject?
        var purgeUnused = false
        if body.readableBytes > 0 {
            guard let object = try? JSONParser.value(Array(body.readableBytesView)).objectValue else {
                throw ServiceFailure.badRequest("the body must be empty or {\"data\": {…}, \"purgeUnused\": true}")
            }
            if let given = object["data"] {
                guard let given = given.objectValue else { throw ServiceFailure.badRequest("\"data\" must be an object") }
                data = given
            }
            if let purge = object["purgeUnused"] {
                guard let purge = purge.boolValue else { throw ServiceFailure.badRequest("\"purgeUnused\" must be true or false") }
                purgeUnused = purge
            }
        }
        return try answer(.accepted, await core.jobs.publish(template: name, data: data, purgeUnused: purgeUnused))
    }

    /// The job's state with its first failures (kept with the state: the failures file is not read), whichever node
    /// runs it.
    private func job(_ context: ServiceRequestContext) async throws -> Response {
        guard let id = context.parameters.get("id"), let job = await core.jobs.status(id) else { throw ServiceFailure.notFound }
        var object = job.json
        let queue = try await core.pushQueue.status()
        object["pushQueue"] = [
            "owed": .number(JSONNumber(queue.depth)),
            "oldestSeconds": queue.oldestEnqueuedAt.map { .number(JSONNumber(max(0, -$0.timeIntervalSinceNow))) } ?? .null,
        ]
        return RouteSupport.json(.ok, .object(object))
    }

    /// Every bad line of a job that was kept (``JobLimits/failuresKept``), as JSON Lines, streamed in pieces from its
    /// file (or from the database, with a fleet's store).
    private func failures(_ context: ServiceRequestContext) async throws -> Response {
        guard let id = context.parameters.get("id"), await core.jobs.status(id) != nil else { throw ServiceFailure.notFound }
        let jobs = core.jobs
        let body = ResponseBody { writer in
            try await jobs.forEachFailurePiece(id) { piece in try await writer.write(ByteBuffer(bytes: piece)) }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "application/jsonl"], body: body)
    }

    private func answer(_ status: HTTPResponse.Status, _ job: UpdateJob) -> Response {
        var object = job.json
        let url = "/api/v1/jobs/\(job.id)"
        object["url"] = .string(url)
        var response = RouteSupport.json(status, .object(object))
        response.headers[.location] = url
        return response
    }
}
