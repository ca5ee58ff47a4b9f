import Foundation

/// Which of an import's two threads does the work that either could do, decided once per run and handed to
/// every part that asks (the queue, its sink, the reader, the job).
///
/// In a first import the writing thread is the bound (~95 % busy: every sample is inserted), so the decoding
/// thread helps it: it computes the samples' fingerprints and frees the batches the writer is done with. In a
/// re-import the decoding is the bound (most samples are only met), so the writing thread does both. The
/// workouts' GPX files go to whichever thread has time (`writerSharesRoutes`).
enum WorkPlacement {
    case decoderHelps
    case writerHelps

    init(updatesExistingDatabase: Bool) { self = updatesExistingDatabase ? .writerHelps : .decoderHelps }

    /// The decoding thread computes `SampleIdentity.fingerprint` of each sample it queues.
    var decoderFingerprints: Bool { self == .decoderHelps }
    /// Spent batches go back to the decoding thread, which releases their items (else the writer does).
    var decoderReleasesBatches: Bool { self == .decoderHelps }
    /// Whether the writing thread reads the GPX files of the workouts that come while it is short of work
    /// (`ItemQueue.writerIsShortOfWork`), the decoding thread those of the others. The export's workouts come
    /// after its records, where a first import's decoding thread is the bound and its writer waits; a
    /// re-import's writer mostly waits. Several decoders read them instead, each for its own chunks (a
    /// re-import's writer reading them one after the other was the bound of the export's workouts:
    /// docs/performance.md, "Re-imports by day" and "GPX files read by the thread with time to spare").
    func writerSharesRoutes(decoders: Int) -> Bool { decoders == 1 }

    /// Threads decoding the XML unless the user says (`--threads`). A first import: one, since the writer
    /// bounds it and more decoders gain nothing but memory. A re-import: two where there are two cores, since
    /// its writer mostly meets rows a day at a time and the decoding is the bound (measured:
    /// docs/performance.md, "Re-imports by day"); more would wait on the splitter and the writer.
    var decoders: Int { self == .writerHelps ? min(2, max(1, ProcessInfo.processInfo.activeProcessorCount)) : 1 }
}
