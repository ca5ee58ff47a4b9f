import Glibc
import HealthModel

/// Replacing a folder by another in one step. `renameat2(RENAME_EXCHANGE)` swaps two paths atomically (Linux
/// 3.15+, on ext4, XFS, Btrfs, tmpfs): a reader listing the folder sees the old files or the new ones. Swift's
/// Glibc does not declare it, so it is looked up by name. Where the file system refuses it (some network file
/// systems), the old folder is moved aside first, and for that instant the folder is absent.
enum FolderSwap {
    private typealias Renameat2 =
        @convention(c) (
            Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32
        ) -> Int32
    private static let exchangeFlag: UInt32 = 2  // RENAME_EXCHANGE

    private static let renameat2: Renameat2? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: Renameat2.self)
    }()

    /// Puts the folder `replacement` at `target`; the previous `target`, if any, ends up at `replacement`.
    static func replace(_ target: String, with replacement: String) throws {
        if access(target, F_OK) != 0 {
            guard rename(replacement, target) == 0 else { throw failure("cannot move into place", target) }
            return
        }
        if let renameat2, renameat2(AT_FDCWD, replacement, AT_FDCWD, target, exchangeFlag) == 0 { return }
        let aside = replacement + ".previous"
        guard rename(target, aside) == 0 else { throw failure("cannot move aside", target) }
        guard rename(replacement, target) == 0 else { throw failure("cannot move into place", target) }
        guard rename(aside, replacement) == 0 else { throw failure("cannot move aside", aside) }
    }

    /// Makes a folder's entries (renames, new files) durable.
    static func syncFolder(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("cannot open", path) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure("cannot sync", path) }
    }

    static func failure(_ what: String, _ path: String) -> ImportError {
        ImportError(.output, "\(what): \(SystemError.last)", file: path)
    }
}
