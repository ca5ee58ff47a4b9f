import Foundation

/// Which of an import's two threads does the work that either could do, decided once per run and handed to
/// every part that asks (the queue, its sink, the reader, the job).
///
/// In a first import the writing thread is the bound (~95 % busy: every sample is inserted), so the decoding
/// thread helps it: it computes the samples' fingerprints, frees the batches the writer is done with, and
/// reads the workouts' GPX files. In a re-import the decoding is the bound (most samples are only met), so the
/// writing thread does the first two, and the GPX files too when one thread decodes (measured:
/// docs/performance.md).
enum WorkPlacement {
    case decoderHelps
    case writerHelps

    init(updatesExistingDatabase: Bool) { self = updatesExistingDatabase ? .writerHelps : .decoderHelps }

    /// The decoding thread computes `SampleIdentity.fingerprint` of each sample it queues.
    var decoderFingerprints: Bool { self == .decoderHelps }
    /// Spent batches go back to the decoding thread, which releases their items (else the writer does).
    var decoderReleasesBatches: Bool { self == .decoderHelps }
    /// The decoding side reads the workouts' route files (else the writing thread does, before writing one).
    /// Several decoders always do, each for its own chunks: a re-import's writer reading them one after the
    /// other was the bound of the export's workouts (2.5 s of a 1 GB export's 12.7 s re-import, the decoding
    /// idle meanwhile: docs/performance.md, "Re-imports by day").
    func decoderReadsRoutes(decoders: Int) -> Bool { self == .decoderHelps || decoders > 1 }

    /// Threads decoding the XML unless the user says (`--threads`). A first import: one, since the writer
    /// bounds it and more decoders gain nothing but memory. A re-import: two where there are two cores, since
    /// its writer mostly meets rows a day at a time and the decoding is the bound (measured:
    /// docs/performance.md, "Re-imports by day"); more would wait on the splitter and the writer.
    var decoders: Int { self == .writerHelps ? min(2, max(1, ProcessInfo.processInfo.activeProcessorCount)) : 1 }
}
