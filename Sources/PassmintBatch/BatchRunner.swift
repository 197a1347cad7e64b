internal import CPassmintZip
import Foundation
public import Passmint
import Synchronization

/// Issues one pass per data row, on all cores, streaming: rows are read and passes written as they go, so memory
/// does not grow with the number of rows. A bad row is reported and skipped; the rest go on.
public struct BatchRunner: Sendable {
    public let template: PassTemplate
    public let builder: PassBuilder
    public let options: BatchOptions

    /// A pass the batch issued (or kept with `--resume`), as the update service records it.
    public struct IssuedPass: Sendable {
        public var passTypeIdentifier: String
        public var serialNumber: String
        public var authenticationToken: String
        /// The row's values as the pass used them (typed), with `serialNumber` and any `authenticationToken`; without
        /// the image columns.
        public var data: JSONObject
        /// The row's own images (its `image:<slot>` columns).
        public var images: PassImages = .none

        public init(
            passTypeIdentifier: String, serialNumber: String, authenticationToken: String, data: JSONObject, images: PassImages = .none
        ) {
            self.passTypeIdentifier = passTypeIdentifier
            self.serialNumber = serialNumber
            self.authenticationToken = authenticationToken
            self.data = data
            self.images = images
        }
    }

    /// What the store holds for a row's pass, read (``storedState``) before an earlier run's pass is kept or issued
    /// again, so that a re-run never undoes what changed at the service since the batch recorded the pass.
    public enum StoredState: Sendable, Equatable {
        /// The store has no such pass.
        case absent
        /// The store holds the row's data already: nothing to write.
        case current
        /// The store holds what this batch recorded last, at this tag: the row's new data replaces it.
        case recordedByBatch(tag: Int64)
        /// The pass changed at the service since the batch recorded it: the row is left as the service has it.
        case changedAtService
    }

    /// With `--register` and ``BatchOptions/resume``: reads the store's state of a pass an earlier run made, from the
    /// worker that makes the row (so concurrently); an error makes the row fail.
    public var storedState: (@Sendable (IssuedPass) async throws -> StoredState)?

    /// Called for every pass written or kept, from the worker that made it (so concurrently), with the state
    /// ``storedState`` read before (nil when it was not read); an error makes the row fail. `passmint batch
    /// --register` records the pass in the service's store here. Returns false when the pass turned out to have
    /// changed at the service meanwhile (it was then left as the service has it).
    public var register: (@Sendable (IssuedPass, StoredState?) async throws -> Bool)?

    /// What recording a row did (lazy issuing).
    public enum RecordOutcome: Sendable, Equatable {
        /// The pass is recorded now.
        case recorded
        /// The serial was recorded already (an import run again): the stored pass is kept, with its token.
        case existing(authenticationToken: String)
        /// The row is reported failed with this reason.
        case failed(String)
    }

    /// With ``BatchOptions/recordOnly``: called with each chunk of checked rows, in row order; returns one outcome per
    /// pass. A thrown error fails the whole chunk.
    public var registerMany: (@Sendable ([IssuedPass]) async throws -> [RecordOutcome])?

    /// The public links of a pass (`passmint batch --register` with a link secret): written into the report's
    /// `downloadURL` and `addURL` columns.
    public var links: (@Sendable (_ passTypeIdentifier: String, _ serialNumber: String) -> (download: String, add: String))?

    /// The pass's "Add to Google Wallet" link (`passmint batch --google`), written into the report's `googleSaveURL`
    /// column; called from the worker that made the pass. A thrown error leaves the column empty and its message in
    /// the row's `error` (the Apple pass is issued all the same).
    /// `send` is false for a pass changed at the service (``StoredState/changedAtService``): its link only, Google's
    /// object left as the service patched it.
    public var googleLink: (@Sendable (IssuedPass, _ send: Bool) async throws -> String)?

    /// Rows recorded per transaction with ``registerMany``.
    static let recordChunk = 1000

    public init(template: PassTemplate, builder: PassBuilder, options: BatchOptions) {
        self.template = template
        self.builder = builder
        self.options = options
    }

    /// A row that passed the sequential checks (serial present and unique) and can be built in parallel.
    struct Job: Sendable {
        var row: Int
        var line: Int
        var values: JSONObject
        var serial: String
        var token: String
        var fileName: String
    }

    /// Runs the batch and writes the report. `plan` is ``plan(for:)``'s answer when the caller has it already (to print
    /// it first). `progress` is called after each row, in row order.
    public func run(
        _ input: BatchInput, plan: BatchPlan? = nil, stop: BatchStopSignal = BatchStopSignal(),
        progress: (BatchProgress) -> Void = { _ in }
    ) async throws -> BatchProgress {
        var input = input
        let plan = try plan ?? self.plan(for: input)
        try prepareFolder()
        let report = try BatchReportWriter(
            folder: options.outputFolder, format: options.reportFormat, links: links != nil, google: googleLink != nil,
            shard: options.shard)
        let sink = try BatchPassSink(output: options.output, resume: options.resume)
        let kept = sink.kept
        let start = ContinuousClock.now
        var counts = BatchProgress()
        var waiting: [Int: BatchResult] = [:]
        var ready: [BatchResult] = []
        var nextRow = 1
        /// Rows of other shards, passed over in row order.
        var skipped: Set<Int> = []
        var serials: [String: Int] = [:]
        let needsToken = options.webServiceURL != nil || template.passJSON["webServiceURL"] != nil
        let chunked = options.recordOnly && registerMany != nil
        // Lazy issuing keeps more rows in flight, so the workers have rows to check while a chunk commits.
        let limit = chunked ? max(options.jobs * 4, Self.recordChunk * 2) : options.jobs * 4
        let images = BatchImageFiles(
            folder: URL(fileURLWithPath: input.path).deletingLastPathComponent().path, allowedFolders: options.imageFolders)

        /// Puts results in row order; the rows ready are reported (after ``registerMany`` when chunked).
        func record(_ result: BatchResult) {
            waiting[result.row] = result
            advance()
        }
        func advance() {
            while true {
                if let next = waiting.removeValue(forKey: nextRow) {
                    ready.append(next)
                } else if skipped.remove(nextRow) == nil {
                    return
                }
                nextRow += 1
            }
        }
        func reportReady(force: Bool) async throws(PassmintError) {
            guard !ready.isEmpty, !chunked || force || ready.count >= Self.recordChunk else { return }
            if chunked { await recordChunk(&ready) }
            for var result in ready {
                try sink.write(&result)
                report.write(result)
                counts.rows += 1
                switch result.status {
                case .issued: counts.issued += 1
                case .existing: counts.existing += 1
                case .changedAtService: counts.changedAtService += 1
                case .recorded: counts.recorded += 1
                case .failed:
                    counts.failed += 1
                    counts.failures.add(row: result.row, reason: result.reason)
                }
                if result.reissued { counts.reissued += 1 }
                counts.bytes += result.bytes
            }
            ready.removeAll(keepingCapacity: true)
            counts.elapsed = (ContinuousClock.now - start).seconds
            progress(counts)
        }

        try await withThrowingTaskGroup(of: BatchResult.self) { group in
            var inFlight = 0
            while !stop.isStopped, let row = input.next() {
                switch prepare(row, plan: plan.spreadsheet, serials: &serials, needsToken: needsToken) {
                case .otherShard:
                    skipped.insert(row.number)
                    advance()
                case .failed(let failure): record(failure)
                case .job(let job):
                    group.addTask { await self.process(job, images: images, kept: kept) }
                    inFlight += 1
                    if inFlight >= limit, let result = try await group.next() {
                        inFlight -= 1
                        record(result)
                    }
                }
                try await reportReady(force: false)
            }
            for try await result in group {
                record(result)
                try await reportReady(force: false)
            }
        }
        try await reportReady(force: true)
        counts.stopped = stop.isStopped
        report.flush()
        try sink.finish(reportPath: report.path)
        FileIO.syncFileSystem(of: options.outputFolder)
        counts.elapsed = (ContinuousClock.now - start).seconds
        return counts
    }

    /// Builds and writes one pass (or keeps a valid one from an earlier run). `images` reads the row's image columns.
    func process(_ job: Job, images: BatchImageFiles, kept: [String: BatchPassSink.KeptPass] = [:]) async -> BatchResult {
        var result = await make(job, images: images, kept: kept)
        // The links are made here, on the workers: an HMAC per row.
        if let links, let issued = result.issued, result.status != .failed {
            (result.downloadURL, result.addURL) = links(issued.passTypeIdentifier, issued.serialNumber)
        }
        if let googleLink, let issued = result.issued, result.status != .failed {
            do {
                // A pass changed at the service keeps Google's object as the service patched it.
                result.googleSaveURL = try await googleLink(issued, result.status != .changedAtService)
            } catch {
                result.error = "Google Wallet: \(error)"
            }
        }
        return result
    }

    /// Builds and writes one pass, keeps a valid one, or (lazy issuing) checks it.
    private func make(_ job: Job, images: BatchImageFiles, kept: [String: BatchPassSink.KeptPass]) async -> BatchResult {
        let path = options.outputFolder + "/" + job.fileName
        let place = "row \(job.row) (line \(job.line))"
        let passImages: PassImages
        do {
            passImages = try images.images(of: job.values)
        } catch {
            return .failure(row: job.row, serial: job.serial, "\(place): \(error.message)")
        }
        let data = template.typed(JSONObject(job.values.members.filter { !$0.key.hasPrefix(BatchImageFiles.columnPrefix) }))
        if options.recordOnly { return recordOnly(job, data: data, images: passImages) }
        let earlier = options.resume ? earlierPass(at: path, job: job, kept: kept) : nil
        let issued = { (type: String, token: String) in
            IssuedPass(
                passTypeIdentifier: type, serialNumber: job.serial, authenticationToken: token,
                data: stamp(job, token: token).stamped(data: data), images: passImages)
        }
        /// The store's state of the earlier run's pass; nil when there is none or nothing reads it.
        func state(of pass: IssuedPass) async throws -> StoredState? {
            guard earlier != nil, let storedState else { return nil }
            return try await storedState(pass)
        }
        var result: BatchResult
        var pass: IssuedPass
        var stored: StoredState?
        do {
            if let earlier,
                !changed(earlier.passJSON, input: input(job, data: data, images: passImages, token: earlier.result.authenticationToken))
            {
                result = earlier.result
                pass = issued(earlier.passTypeIdentifier, result.authenticationToken)
                stored = try await state(of: pass)
            } else {
                // A pass of an earlier run whose row changed is issued again with its token (devices registered with it).
                let earlierToken = earlier?.result.authenticationToken
                let token = earlierToken.flatMap { $0.isEmpty ? nil : $0 } ?? job.token
                let prepared = try builder.prepare(input(job, data: data, images: passImages, token: token))
                pass = issued(prepared.passTypeIdentifier, token)
                stored = try await state(of: pass)
                if stored == .changedAtService, let earlier {
                    result = earlier.result
                } else {
                    let archive = try builder.signArchive(prepared).archive
                    if options.output == .folder { try FileIO.writeAtomically(archive, to: path, durable: false, startWriteback: true) }
                    result = BatchResult(
                        row: job.row, serialNumber: job.serial, status: .issued, file: job.fileName, sha256: archive.sha256Hex(),
                        authenticationToken: token, error: "", bytes: archive.count)
                    result.reissued = earlierToken != nil
                    if options.output != .folder { result.archive = archive }
                }
            }
        } catch let error as PassmintError {
            return .failure(row: job.row, serial: job.serial, "\(place): \(error.message)")
        } catch {
            return .failure(row: job.row, serial: job.serial, "\(place): the store could not be read: \(error)")
        }
        result.issued = pass
        if stored == .changedAtService { return changedAtService(result) }
        if let register {
            do {
                if try await !register(pass, stored) { return changedAtService(result) }
            } catch {
                return .failure(
                    row: job.row, serial: job.serial, "\(place): \(job.fileName) was written but not recorded in the store: \(error)")
            }
        }
        return result
    }

    /// A row whose stored pass changed at the service since the batch recorded it: reported, its pass file as it is.
    private func changedAtService(_ result: BatchResult) -> BatchResult {
        var result = result
        result.status = .changedAtService
        result.reissued = false
        result.error =
            "row \(result.row): serial \(result.serialNumber) changed at the service since it was issued, so this row was not "
            + "applied (the service and the phones keep the service's values): use `passmint update` to change it"
        result.reason = "changed at the service since it was issued"
        return result
    }

    /// A pass kept in the archive of an earlier run (its CRC checked when the archive was reopened), when it carries
    /// this serial.
    func keptPass(_ pass: BatchPassSink.KeptPass, job: Job) -> EarlierPass? {
        guard pass.serialNumber == job.serial else { return nil }
        let result = BatchResult(
            row: job.row, serialNumber: job.serial, status: .existing, file: job.fileName, sha256: pass.sha256,
            authenticationToken: pass.authenticationToken, error: "", bytes: 0)
        return EarlierPass(result: result, passTypeIdentifier: pass.passTypeIdentifier, passJSON: nil)
    }

    /// A pass from an earlier run, when it exists, verifies, carries this serial and was signed by this identity.
    func existingPass(at path: String, job: Job) -> EarlierPass? {
        guard FileManager.default.fileExists(atPath: path), let bytes = try? FileIO.read(path, what: "pass") else { return nil }
        let report = PassVerifier().verify(bytes, source: path, lint: false)
        guard report.isValid, let signer = report.signature?.signer,
            builder.identities.all.contains(where: { $0.certificate.derBytes == signer.derBytes }),
            let entries = try? ZipArchive.read(bytes, source: path),
            let passBytes = entries.first(where: { $0.name == "pass.json" })?.bytes,
            let json = try? JSONParser.value(passBytes), json["serialNumber"]?.stringValue == job.serial
        else { return nil }
        let result = BatchResult(
            row: job.row, serialNumber: job.serial, status: .existing, file: job.fileName, sha256: Digest.sha256Hex(bytes),
            authenticationToken: json["authenticationToken"]?.stringValue ?? "", error: "", bytes: 0)
        return EarlierPass(result: result, passTypeIdentifier: json["passTypeIdentifier"]?.stringValue ?? "", passJSON: json)
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
