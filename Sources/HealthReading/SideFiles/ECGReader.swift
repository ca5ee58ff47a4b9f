import HealthModel

/// Reads an ECG recording (`electrocardiograms/ecg_YYYY-MM-DD[_N].csv`, reference §8.1).
///
/// The header labels are localised (`Recorded Date`, `記録日`, …), so the eight header lines are read by
/// position and their labels only kept as written. Samples start at the first purely numeric line, one per
/// line, with `.` or `,` as the decimal separator depending on the phone's locale.
///
/// Files are ~120 KB, so the caller reads them whole (with a size limit) and this works on the bytes. Bad input
/// throws an `ImportError`; no input can make it trap: lines are found on ASCII bytes (which never occur inside
/// a UTF-8 sequence) and text is decoded lossily.
public enum ECGReader {
    /// Header lines by position (1-based), as the exporter writes them.
    private enum HeaderLine: Int {
        case name = 1, dateOfBirth, recordedDate, classification, symptoms, softwareVersion, device, sampleRate
    }

    /// Reads one file. `header` gets the eight positional lines (blank ones as empty pairs, so positions hold),
    /// then every other non-blank line before the samples (`Lead`, `Unit`). Throws an `ImportError` with the
    /// line when a sample line is not a number or there is no sample at all.
    public static func read(fileName: String, bytes: [UInt8]) throws -> ElectrocardiogramRecording {
        try bytes.withUnsafeBufferPointer { try read(fileName: fileName, buffer: $0) }
    }

    private static func read(fileName: String, buffer: UnsafeBufferPointer<UInt8>) throws
        -> ElectrocardiogramRecording
    {
        var recording = ElectrocardiogramRecording(fileName: fileName)
        // A sample line is ~8 bytes; the cap keeps a huge non-ECG file from reserving much up front.
        recording.samples.reserveCapacity(min(buffer.count / 8, 1 << 16))
        var lines = LineIterator(buffer)
        var lineNumber = 0
        var inSamples = false
        // Non-blank lines after the positional header and before the samples: `Lead`, then `Unit`.
        var linesAfterHeader = 0
        while let line = lines.next() {
            lineNumber += 1
            if inSamples {
                if isBlank(line) { continue }
                guard let value = sampleValue(line) else {
                    throw ImportError(
                        .input, "ECG sample is not a number: \"\(excerpt(line))\"", line: lineNumber,
                        hint: "the file is damaged; re-export from the Health app")
                }
                recording.samples.append(value)
                continue
            }
            if let value = sampleValue(line) {
                inSamples = true
                recording.samples.append(value)
                continue
            }
            if lineNumber <= HeaderLine.sampleRate.rawValue {
                // Blank positional lines are kept too, so `header[i]` stays the field at position i + 1.
                let pair = headerPair(line)
                recording.header.append(pair)
                if let position = HeaderLine(rawValue: lineNumber) { assign(pair.value, at: position, to: &recording) }
            } else if !isBlank(line) {
                let pair = headerPair(line)
                recording.header.append(pair)
                linesAfterHeader += 1
                if linesAfterHeader == 1 { recording.lead = nonEmpty(pair.value) }
                if linesAfterHeader == 2 { recording.unit = nonEmpty(pair.value) }
            }
        }
        guard !recording.samples.isEmpty else {
            throw ImportError(
                .input, "the ECG file has no samples", line: max(1, lineNumber),
                hint: "the file is truncated or not an ECG export")
        }
        return recording
    }

    private static func assign(
        _ value: String, at position: HeaderLine, to recording: inout ElectrocardiogramRecording
    ) {
        let trimmed = nonEmpty(value)
        switch position {
        case .name, .dateOfBirth: break  // only in `header`: personal data the schema does not need typed
        case .recordedDate: recording.recordedDate = trimmed.flatMap { Timestamp.parse($0) }
        case .classification: recording.classification = trimmed
        case .symptoms: recording.symptoms = trimmed
        case .softwareVersion: recording.softwareVersion = trimmed
        case .device: recording.device = trimmed
        case .sampleRate: recording.sampleRateHz = trimmed.flatMap(leadingNumber)
        }
    }

    // MARK: - Lines and fields

    /// Lines ended by LF, CRLF or a lone CR; a UTF-8 byte order mark at the start is skipped.
    private struct LineIterator {
        let buffer: UnsafeBufferPointer<UInt8>
        var position: Int

        init(_ buffer: UnsafeBufferPointer<UInt8>) {
            self.buffer = buffer
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            position = buffer.starts(with: bom) ? 3 : 0
        }

        mutating func next() -> UnsafeBufferPointer<UInt8>? {
            guard position < buffer.count else { return nil }
            let start = position
            var end = start
            while end < buffer.count, buffer[end] != 0x0A, buffer[end] != 0x0D { end += 1 }
            position = end
            if position < buffer.count {
                let crlf = buffer[position] == 0x0D && position + 1 < buffer.count && buffer[position + 1] == 0x0A
                position += crlf ? 2 : 1
            }
            return UnsafeBufferPointer(rebasing: buffer[start..<end])
        }
    }

    /// Splits one line as CSV (`"` quotes a field, `""` is a quote inside it) and pairs the first field with
    /// the rest. The rest is joined back with commas: a value the exporter did not quote (a comma-joined
    /// symptom list) must survive whole. An unclosed quote runs to the end of the line, never further, so a
    /// stray quote cannot swallow the samples.
    private static func headerPair(_ line: UnsafeBufferPointer<UInt8>) -> (label: String, value: String) {
        var fields: [[UInt8]] = []
        var field: [UInt8] = []
        var index = 0
        var quoted = false
        var atFieldStart = true
        while index < line.count {
            let byte = line[index]
            index += 1
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index < line.count, line[index] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(byte)
                }
            } else if byte == UInt8(ascii: ",") {
                fields.append(field)
                field = []
                atFieldStart = true
                continue
            } else if byte == UInt8(ascii: "\""), atFieldStart {
                quoted = true
            } else {
                field.append(byte)
            }
            atFieldStart = false
        }
        fields.append(field)
        let label = String(decoding: fields[0], as: UTF8.self)
        let value = fields.dropFirst().map { String(decoding: $0, as: UTF8.self) }.joined(separator: ",")
        return (label, value)
    }

    private static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    private static func nonEmpty(_ text: String) -> String? {
        let trimmed = text.trimmingASCIIWhitespace()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The start of a line for an error message: short, and lossily decoded so any bytes can be shown.
    private static func excerpt(_ line: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: line.prefix(40), as: UTF8.self)
        return line.count > 40 ? text + "…" : text
    }

    // MARK: - Numbers

    /// One sample in µV, or nil when the line is not purely a number. Accepts `-107.825`, `-265,868`, a
    /// quoted number, and U+2212 as the minus sign (some locales' number formatters write it). When both `.`
    /// and `,` occur, the last one is the decimal separator and the other one is grouping.
    static func sampleValue(_ line: UnsafeBufferPointer<UInt8>) -> Float? {
        var start = 0
        var end = line.count
        while start < end, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
        while end > start, line[end - 1] == 0x20 || line[end - 1] == 0x09 { end -= 1 }
        if end - start >= 2, line[start] == UInt8(ascii: "\""), line[end - 1] == UInt8(ascii: "\"") {
            start += 1
            end -= 1
        }
        guard end > start, end - start <= 48, let base = line.baseAddress else { return nil }
        // The usual sample (`-107.825`: a sign, digits, at most one dot) is read as it is written: normalising
        // it would copy the same bytes (measured: ECG parsing was half of a 1.2 GB import's last half-second).
        if let exact = NumberParsing.parseExactly(base + start, end - start) { return finite(Float(exact)) }
        return normalisedSampleValue(line, start, end)
    }

    /// `sampleValue` for any trimmed sample: separators and U+2212 normalised, then parsed.
    static func normalisedSampleValue(_ line: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Float? {
        var lastDot = -1
        var lastComma = -1
        var commas = 0
        for index in start..<end {
            if line[index] == UInt8(ascii: ".") { lastDot = index }
            if line[index] == UInt8(ascii: ",") {
                lastComma = index
                commas += 1
            }
        }
        if lastDot < 0, commas > 1 { return nil }  // `1,2,3` is a list, not a number
        let decimal = max(lastDot, lastComma)
        let grouping: UInt8 = lastDot > lastComma ? UInt8(ascii: ",") : UInt8(ascii: ".")

        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { scratch -> Float? in
            var count = 0
            var index = start
            while index < end {
                let byte = line[index]
                if byte == 0xE2, index + 2 < end, line[index + 1] == 0x88, line[index + 2] == 0x92 {
                    scratch[count] = UInt8(ascii: "-")  // U+2212 MINUS SIGN
                    index += 3
                } else if index == decimal {
                    scratch[count] = UInt8(ascii: ".")
                    index += 1
                } else if byte == grouping, decimal >= 0 {
                    index += 1
                    continue
                } else {
                    scratch[count] = byte
                    index += 1
                }
                count += 1
            }
            let number = UnsafeBufferPointer(rebasing: scratch[0..<count])
            guard let value = NumberParsing.parseDouble(number) else { return nil }
            return finite(Float(value))
        }
    }

    private static func finite(_ value: Float) -> Float? { value.isFinite ? value : nil }

    /// The number a sample-rate value starts with: `512 hertz`, `512.844 hertz`, `512ヘルツ`, `512,844 Hz`.
    static func leadingNumber(_ text: String) -> Double? {
        var digits = ""
        var sawSeparator = false
        for character in text {
            if let ascii = character.asciiValue, (0x30...0x39).contains(ascii) {
                digits.append(character)
            } else if character == "." || character == ",", !sawSeparator, !digits.isEmpty {
                sawSeparator = true
                digits.append(".")
            } else {
                break
            }
        }
        if digits.hasSuffix(".") { digits.removeLast() }
        return digits.isEmpty ? nil : NumberParsing.parseDouble(digits)
    }
}

extension String {
    /// Without Foundation: spaces, tabs and line ends around a header value are noise.
    fileprivate func trimmingASCIIWhitespace() -> String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" || first == "\r" || first == "\n" {
            text.removeFirst()
        }
        while let last = text.last, last == " " || last == "\t" || last == "\r" || last == "\n" {
            text.removeLast()
        }
        return String(text)
    }
}
