import Glibc

/// Whether the process that named a leftover file (a scratch database, a working copy, a temporary database) is
/// still running: files of a process that is gone may be removed by the next run.
package enum ProcessLiveness {
    /// Whether `pid` names no running process (and is not ours): its temporary files are leftovers.
    package static func processIsGone(_ pid: Int32) -> Bool {
        pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
    }
}
