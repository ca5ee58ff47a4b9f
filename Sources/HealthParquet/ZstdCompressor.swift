import CZstd

/// Page bodies compressed with zstd (codec ZSTD), which every reader healthetl targets decodes. Level 2: on
/// the 1 GB standard export, level 1 made the lake 16 % larger for 20 % less CPU, level 3 5 % smaller for 15 %
/// more. One context reused for every page of a file.
final class ZstdCompressor {
    private let context: OpaquePointer
    private let level: Int32
    private var output: [UInt8] = []

    init(level: Int32 = 2) throws {
        guard let context = ZSTD_createCCtx() else { throw ParquetError("zstd could not allocate a context") }
        self.context = context
        self.level = level
    }

    deinit { ZSTD_freeCCtx(context) }

    /// `input` compressed (a frame of its own, as Parquet pages are), handed to `body` from the reused buffer.
    func compress<T>(_ input: [UInt8], _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        let bound = ZSTD_compressBound(input.count)
        if output.count < bound { output = [UInt8](repeating: 0, count: bound) }
        let written = input.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { target in
                ZSTD_compressCCtx(context, target.baseAddress, target.count, source.baseAddress, source.count, level)
            }
        }
        guard ZSTD_isError(written) == 0 else {
            throw ParquetError("zstd: " + String(cString: ZSTD_getErrorName(written)))
        }
        return try output.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<written])) }
    }
}
