import FoundationEssentials
import Synchronization

/// Which devices hold a local file system: one whose `stat`, `open` and `read` the kernel answers
/// from this machine's own disks or memory (ext4, XFS, Btrfs, tmpfs, overlay, …), unlike a
/// network file system or a FUSE daemon, either of which can leave a call waiting without end.
/// Read from `/proc/self/mountinfo` (procfs, which never waits on a disk or a network) when a
/// device is first asked about, and kept. The manager asks it before a job starts, to know
/// whether the job's files may be inspected and read on a thread that must not wait long
/// (`UploadManager.startsInRootQueueTurn`). Safe to use from any thread.
///
/// A device number can be reused for another mount after an unmount (anonymous devices: tmpfs,
/// Btrfs, overlay, NFS), which this does not see within one process's life; a file on a Btrfs
/// subvolume other than the mounted one has a device of its own, not listed, so not local here.
enum LocalFileSystems {
    /// The file system types counted as local, as `mountinfo` names them. Every other type (NFS,
    /// SMB, Ceph, 9P, virtiofs, `fuse.*`, and types not listed) is not.
    static let localTypes: Set<Substring> = [
        "ext2", "ext3", "ext4", "xfs", "btrfs", "tmpfs", "ramfs", "overlay", "f2fs", "zfs", "bcachefs",
        "jfs", "reiserfs", "vfat", "msdos", "exfat", "ntfs3", "iso9660", "squashfs", "erofs", "hfsplus", "nilfs2",
    ]

    /// Each device asked about: true for a local file system.
    private static let devices = Mutex<[UInt64: Bool]>([:])

    /// Whether a device holds a local file system; false when `mountinfo` does not list it.
    ///
    /// - Parameter device: A file's device (`FileIdentity.device`, `st_dev`).
    /// - Returns: True when local.
    static func contains(device: UInt64) -> Bool {
        if let known = devices.withLock({ $0[device] }) { return known }
        let text = (try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)) ?? ""
        let listed = mountedDevices(mountInfo: text)
        return devices.withLock { devices in
            devices.merge(listed) { _, new in new }
            let isLocal = listed[device] ?? false
            devices[device] = isLocal
            return isLocal
        }
    }

    /// The devices a `mountinfo` text lists, each with whether its file system is local.
    ///
    /// - Parameter mountInfo: `/proc/self/mountinfo`'s text: per line, the mount's ID, its
    ///   parent's, `major:minor`, root, mount point, options, optional fields, `-`, the type, ….
    /// - Returns: Each device (`st_dev` encoding) and whether it is local.
    static func mountedDevices(mountInfo: String) -> [UInt64: Bool] {
        var listed: [UInt64: Bool] = [:]
        for line in mountInfo.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 3, let separator = fields.firstIndex(of: "-"), separator + 1 < fields.count
            else { continue }
            let numbers = fields[2].split(separator: ":")
            guard numbers.count == 2, let major = UInt64(numbers[0]), let minor = UInt64(numbers[1]) else { continue }
            listed[device(major: major, minor: minor)] = localTypes.contains(fields[separator + 1])
        }
        return listed
    }

    /// glibc's `makedev`: the `st_dev` of a device's major and minor numbers.
    static func device(major: UInt64, minor: UInt64) -> UInt64 {
        (major & 0xFFFF_F000) << 32 | (major & 0xFFF) << 8 | (minor & 0xFFFF_FF00) << 12 | (minor & 0xFF)
    }
}
