import Foundation
import HealthModel

/// `ExportReader` on N threads (docs/batches.md, "Decoding on N cores"): the same rows and items in the same
/// order, the same source ids, warnings and counts, and the same first error, for any N.
///
/// One thread inflates, filters and cuts the XML (`TopLevelSplitter`); run r of chunks (a chunk and those that
/// continue its parse) goes to worker r mod N, which decodes it with its own `ExportChunkDecoder` into a batch
/// and cuts that by weight, reading the side files its items reference (GPX routes,
/// clinical resources), so that slow work runs in parallel too. `produceBatches` receives from the workers in
/// that same rotation, so batches come in export order without a reordering buffer, renumbers each parse's
/// names (`VocabularyMerge`) and sources (`SourceRenumbering`) in chunk order, which gives the whole decode's
/// ids, and hands the batches on. Every channel holds one chunk or batch: memory stays a few chunks per worker.
///
/// An error ends the run with the first error in export order: a worker's error reaches `produceBatches` only
/// after the chunks before it, the splitter's after every chunk it cut. Whatever ends it (an error, or `body`
/// throwing) cancels every channel and joins every thread, so nothing waits forever.
public final class ParallelExportReader: ItemSource {
    public let container: ExportContainer
    public let threads: Int
    public var routeSpillThreshold = RoutePointBuffer.defaultSpillThreshold
    /// Chunk size handed to the splitter; tests lower it to cut small exports into many chunks.
    package var chunkTargetSize = TopLevelSplitter.defaultTargetSize

    private var sideFiles: SideFiles
    private var decoderWarnings: [String: Int] = [:]
    private var counts: [String: Int] = [:]
    private var legacyRecords = 0
    private var bytesRead: UInt64 = 0
    private var removed = 0
    private var replaced = 0

    /// The main XML, opened when the reader is made (as `ExportReader` does, so a missing entry fails there);
    /// `produce` hands it to the splitter's thread.
    private var main: ByteStream?

    public init(container: ExportContainer, threads: Int) throws {
        precondition(threads >= 1, "at least one decoding thread")
        self.container = container
        self.threads = threads
        sideFiles = SideFiles(container: container)
        main = try container.openMain()
    }

    public var progress: (done: UInt64, total: UInt64?) { (bytesRead, container.mainSize) }
    public var removedControlCharacters: Int { removed }
    public var warnings: [String: Int] {
        ExportReader.warnings(
            decoder: decoderWarnings, sideFiles: sideFiles.warnings, replacedInvalidUTF8Bytes: replaced,
            legacyRecords: legacyRecords)
    }
    public var elementCounts: [String: Int] { counts }

    /// Every item as batches, in export order: each worker's batches (cut by weight as `ExportReader` cuts its
    /// own) with their names and sources renumbered into the run's, then the trailing side files.
    public func produceBatches(_ body: (inout SampleBatch) throws -> Void) throws {
        guard let stream = main else { throw ImportError(.internal, "an export is read once") }
        main = nil
        let run = ParallelDecodeRun(reader: self, stream: stream)
        defer { run.stopAndJoin() }
        var sources = SourceRenumbering()
        var merge = VocabularyMerge()
        var vocabulary = Vocabulary()
        var worker = 0
        var startsChunk = true
        while true {
            guard var decoded = try run.workers[worker].output.receive() else {
                // The worker ended before the last chunk: the splitter stopped, with its error.
                try run.splitterFailure()
                throw ImportError(.internal, "the XML splitter ended without its last chunk")
            }
            if startsChunk, !decoded.continuesPrevious {
                sources.beginParse()
                merge.beginParse()
            }
            sources.add(decoded.newSources)
            for source in decoded.newSources {
                merge.add(source: source.id, as: sources.renumbered(source), in: &vocabulary)
            }
            merge.merge(&decoded.batch, into: &vocabulary)
            for index in decoded.batch.others.indices { decoded.batch.changeOther(index) { sources.renumbered($0) } }
            bytesRead = decoded.inputBytesRead
            if decoded.batch.hasContent {
                try body(&decoded.batch)
                vocabulary = decoded.batch.vocabulary
            }
            startsChunk = decoded.endsChunk
            if decoded.endsChunk {
                if decoded.isLast { break }
                if !decoded.continuedByNext { worker = (worker + 1) % threads }
            }
        }
        run.stopAndJoin()
        for box in run.workers {
            decoderWarnings.merge(box.decoder.value.warnings, uniquingKeysWith: +)
            counts.merge(box.decoder.value.elementCounts, uniquingKeysWith: +)
            legacyRecords += box.decoder.value.legacyRecords
            sideFiles.addWarnings(box.sideFiles.value.warnings)
        }
        (removed, replaced) = run.filterCounts.value
        var trailing = SampleBatch(vocabulary: vocabulary)
        try sideFiles.handOnTrailingItems(after: &trailing, body)
    }

    /// Item by item, for tests: the batches' rows as `Sample`s and their other items, in export order.
    public func produce(_ body: (consuming ExportItem) throws -> Void) throws {
        try produceBatches { batch in
            var cursor = BatchItemCursor()
            while let item = cursor.next(from: &batch) { try body(item) }
        }
    }
}

/// A chunk's bytes owned, to cross from the splitter (whose buffer is reused) to a worker.
struct OwnedChunk: Sendable {
    var chunk: TopLevelChunk
    var storage: [UInt8]

    init(_ chunk: TopLevelChunk) {
        self.chunk = chunk
        storage = Array(chunk.bytes)
        self.chunk.bytes = UnsafeRawBufferPointer(start: nil, count: 0)
    }

    func decode(with decoder: ExportChunkDecoder) throws -> ExportChunkDecoder.Decoded {
        try storage.withUnsafeBytes { bytes in
            var chunk = chunk
            chunk.bytes = bytes
            return try decoder.decode(chunk)
        }
    }
}

/// Only as part of an `OwnedChunk`, whose `bytes` are emptied before it crosses threads (set again from its own
/// storage on the worker).
extension TopLevelChunk: @unchecked Sendable {}

/// What a worker hands to `produce`: a chunk's rows and items, cut by weight into one or more batches.
struct DecodedBatch: Sendable {
    /// Names and sources are the parse's own ids.
    var batch: SampleBatch
    /// The sources the chunk's parse met first (on a chunk's first batch; empty on the others).
    var newSources: [SampleSource]
    /// Of the chunk this batch is part of.
    var continuesPrevious: Bool
    /// This is the chunk's last batch; the flags below are the chunk's.
    var endsChunk: Bool
    var continuedByNext: Bool
    var isLast: Bool
    var inputBytesRead: UInt64
}

/// The threads of one `ParallelExportReader.produce`: the splitter and the workers, with their channels.
final class ParallelDecodeRun {
    final class Worker {
        let input = BoundedChannel<OwnedChunk>(capacity: 1)
        /// Batches of about `SampleBatch.fullWeight` (or one heavy item): bounded by weight, as `ItemQueue` is.
        let output = BoundedChannel<DecodedBatch>(capacity: 1)
        /// Read by `produce` only after the worker's thread is joined.
        let decoder = Handoff(ExportChunkDecoder())
        let sideFiles: Handoff<SideFiles>
        var thread: WorkerThread?
        init(sideFiles: SideFiles) { self.sideFiles = Handoff(sideFiles) }
    }

    let workers: [Worker]
    private var splitter: WorkerThread?
    /// Written by the splitter's thread before it ends; read after it is joined.
    let filterCounts = Handoff((0, 0))
    private var joined = false

    init(reader: ParallelExportReader, stream: ByteStream) {
        let container = reader.container
        var workers: [Worker] = []
        for _ in 0..<reader.threads {
            var sideFiles = SideFiles(container: container, countsDuplicateEntries: false)
            sideFiles.routes.spillThreshold = reader.routeSpillThreshold
            let worker = Worker(sideFiles: sideFiles)
            worker.decoder.value.routeSpillThreshold = reader.routeSpillThreshold
            workers.append(worker)
        }
        self.workers = workers
        // The container reads side files with `pread` and its main entry through its own stream: each thread
        // uses only what it was handed.
        let shared = Handoff(container)
        let stream = Handoff(stream)
        let target = reader.chunkTargetSize
        let filterCounts = filterCounts
        let inputs = workers.map(\.input)
        splitter = WorkerThread(name: "split") { _ in
            try Self.split(stream.value, target: target, into: inputs, counts: filterCounts, container: shared.value)
        }
        for (index, worker) in workers.enumerated() {
            let handles = Handoff(worker)
            worker.thread = WorkerThread(name: "decode-\(index)", stackSize: 8 << 20) { _ in
                Self.decode(handles.value, container: shared.value)
            }
        }
    }

    /// Cuts the XML and deals the chunks: a chunk that continues a parse goes where that parse began.
    private static func split(
        _ stream: ByteStream, target: Int, into inputs: [BoundedChannel<OwnedChunk>], counts: Handoff<(Int, Int)>,
        container: ExportContainer
    ) throws {
        let splitter = TopLevelSplitter(targetSize: target)
        var worker = -1
        do {
            try splitter.split(stream) { chunk in
                if !chunk.continuesPrevious { worker = (worker + 1) % inputs.count }
                guard inputs[worker].send(OwnedChunk(chunk)) else { throw CancellationError() }
            }
            counts.value = (splitter.removedControlCharacters, splitter.replacedInvalidUTF8Bytes)
        } catch let error as ImportError {
            for input in inputs { input.finish() }
            throw error.located(file: container.path, entry: container.entryLabel)
        } catch {
            for input in inputs { input.finish() }
            throw error
        }
        for input in inputs { input.finish() }
    }

    private static func decode(_ worker: Worker, container: ExportContainer) {
        do {
            while let owned = try worker.input.receive() {
                var decoded = try owned.decode(with: worker.decoder.value)
                let chunk = owned.chunk
                var newSources = Array(decoded.newSources)
                func out(_ batch: SampleBatch, endsChunk: Bool) -> DecodedBatch {
                    defer { newSources = [] }
                    return DecodedBatch(
                        batch: batch, newSources: newSources, continuesPrevious: chunk.continuesPrevious,
                        endsChunk: endsChunk, continuedByNext: chunk.continuedByNext, isLast: chunk.isLast,
                        inputBytesRead: chunk.inputBytesRead)
                }
                // Cut as `ExportReader` cuts its batch: side files read as they are weighed, so a workout with
                // its routes ends a batch and the channel holds one batch's weight. Each full batch is swapped out
                // of `front` to cross to the reading thread.
                var weighing = SampleBatch.Weighing()
                var front = SampleBatch(vocabulary: decoded.batch.vocabulary)
                func send(_ full: inout SampleBatch) throws {
                    var sent = SampleBatch(vocabulary: full.vocabulary)
                    swap(&sent, &full)
                    guard worker.output.send(out(sent, endsChunk: false)) else { throw CancellationError() }
                }
                try decoded.batch.handOnFullBatches(
                    &weighing, through: &front, resolve: { worker.sideFiles.value.resolved($0) }, send)
                guard worker.output.send(out(decoded.batch, endsChunk: true)) else { break }
            }
            worker.output.finish()
        } catch let error as ImportError {
            worker.output.finish(throwing: error.located(file: container.path, entry: container.entryLabel))
            worker.input.cancel()
        } catch {
            worker.output.finish(throwing: error)
            worker.input.cancel()
        }
    }

    /// After a worker ended early: the splitter's error, if it had one.
    func splitterFailure() throws {
        try splitter?.join()
    }

    /// Cancels every channel (a blocked send or receive returns) and waits for every thread.
    func stopAndJoin() {
        guard !joined else { return }
        joined = true
        for worker in workers {
            worker.input.cancel()
            worker.output.cancel()
        }
        _ = try? splitter?.join()
        for worker in workers { _ = try? worker.thread?.join() }
    }
}

/// Sources numbered in the order the whole decode would have: each parse numbers its own from 1, and its new
/// ones (in its interning order) are given the next global ids unless an earlier parse met the same source.
struct SourceRenumbering {
    private var global: [String: SampleSource] = [:]
    private var count = 0
    /// The current parse's local id → global source.
    private var local: [SampleSource?] = [nil]

    mutating func beginParse() { local = [nil] }

    mutating func add(_ sources: [SampleSource]) {
        for source in sources {
            let key = "\(source.name)\u{0}\(source.version ?? "\u{1}")\u{0}\(source.device?.key ?? "\u{1}")"
            let known =
                global[key]
                ?? {
                    count += 1
                    let made = SampleSource(
                        id: count, name: source.name, version: source.version, device: source.device)
                    global[key] = made
                    return made
                }()
            if source.id >= local.count { local += repeatElement(nil, count: source.id - local.count + 1) }
            local[source.id] = known
        }
    }

    func renumbered(_ source: SampleSource) -> SampleSource { local[source.id] ?? source }

    func renumbered(_ item: consuming ExportItem) -> ExportItem {
        switch consume item {
        case .sample(var sample):
            sample.source = renumbered(sample.source)
            return .sample(sample)
        case .correlation(var correlation):
            correlation.source = renumbered(correlation.source)
            for index in correlation.children.indices {
                correlation.children[index].source = renumbered(correlation.children[index].source)
            }
            return .correlation(correlation)
        case .workout(var workout):
            workout.source = renumbered(workout.source)
            for index in workout.routes.indices {
                workout.routes[index].source = renumbered(workout.routes[index].source)
            }
            return .workout(workout)
        case .audiogram(var audiogram):
            audiogram.source = renumbered(audiogram.source)
            return .audiogram(audiogram)
        case let other:
            return other
        }
    }
}
