import Foundation

/// A one-line progress bar on stderr, redrawn at most a few times a second.
final class ProgressBar {
    private let write: (String) -> Void
    private let started = Date()
    private var lastDraw = Date.distantPast
    private var drawn = false

    init(write: @escaping (String) -> Void) { self.write = write }

    func update(done: UInt64, total: UInt64?) {
        let now = Date()
        guard now.timeIntervalSince(lastDraw) > 0.2 else { return }
        lastDraw = now
        let elapsed = max(now.timeIntervalSince(started), 0.001)
        let rate = Double(done) / 1_000_000 / elapsed
        var line = String(format: "  %.0f MB of XML read, %.0f MB/s", Double(done) / 1_000_000, rate)
        if let total, total > 0 {
            let fraction = min(1, Double(done) / Double(total))
            let width = 30
            let filled = Int(fraction * Double(width))
            line =
                "  [" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
                + String(format: "] %3.0f%%", fraction * 100) + line
        }
        write("\r" + line + "\u{1B}[K")
        drawn = true
    }

    func clear() {
        if drawn { write("\r\u{1B}[K") }
        drawn = false
    }
}
