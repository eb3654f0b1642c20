import Synchronization

/// Which devices hold a local file system: one whose `stat`, `open` and `read` the kernel answers
/// from this machine's own disks or memory (ext4, XFS, Btrfs, tmpfs, overlay, …), unlike a
/// network file system or a FUSE daemon, either of which can leave a call waiting without end.
/// Read from `/proc/self/mountinfo` (procfs, which never waits on a disk or a network) when a
/// device is first asked about, and kept. The upload manager asks it before a job starts, to know
/// whether the job's files may be inspected and read on a thread that must not wait long
/// (`UploadManager.startsInRootQueueTurn`). Safe to use from any thread.
///
/// A device number can be reused for another mount after an unmount (anonymous devices: tmpfs,
/// Btrfs, overlay, NFS), which this does not see within one process's life; a file on a Btrfs
/// subvolume other than the mounted one has a device of its own, not listed, so not local here.
public enum LocalFileSystems {
    /// The file system types counted as local, as `mountinfo` names them. Every other type (NFS,
    /// SMB, Ceph, 9P, virtiofs, `fuse.*`, and types not listed) is not.
    package static let localTypes: Set<String> = [
        "ext2", "ext3", "ext4", "xfs", "btrfs", "tmpfs", "ramfs", "overlay", "f2fs", "zfs", "bcachefs",
        "jfs", "reiserfs", "vfat", "msdos", "exfat", "ntfs3", "iso9660", "squashfs", "erofs", "hfsplus", "nilfs2",
    ]

    /// Each device asked about: true for a local file system.
    private static let devices = Mutex<[UInt64: Bool]>([:])

    /// Whether a device holds a local file system; false when `mountinfo` does not list it.
    ///
    /// - Parameter device: A file's device (`FileIdentity.device`, `st_dev`).
    /// - Returns: True when local.
    public static func contains(device: UInt64) -> Bool {
        if let known = devices.withLock({ $0[device] }) { return known }
        let text = (try? DescriptorInput.readFile(atPath: "/proc/self/mountinfo").get()) ?? []
        let listed = mountedDevices(mountInfo: text)
        return devices.withLock { devices in
            devices.merge(listed) { _, new in new }
            let isLocal = listed[device] ?? false
            devices[device] = isLocal
            return isLocal
        }
    }

    /// The devices a `mountinfo` text lists, each with whether its file system is local. Read
    /// byte by byte: a container's table has hundreds of lines, and splitting them into
    /// substrings took a third of a millisecond before a one-file `ferry send`'s first request.
    ///
    /// - Parameter mountInfo: `/proc/self/mountinfo`'s bytes: per line, the mount's ID, its
    ///   parent's, `major:minor`, root, mount point, options, optional fields, `-`, the type, ….
    /// - Returns: Each device (`st_dev` encoding) and whether it is local.
    package static func mountedDevices(mountInfo: [UInt8]) -> [UInt64: Bool] {
        var listed: [UInt64: Bool] = [:]
        var lineStart = 0
        while lineStart < mountInfo.count {
            let lineEnd = mountInfo[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? mountInfo.count
            if let (device, isLocal) = mount(in: mountInfo[lineStart..<lineEnd]) { listed[device] = isLocal }
            lineStart = lineEnd + 1
        }
        return listed
    }

    /// One `mountinfo` line's device, from its third field, and whether the type after the `-`
    /// field is local; nil for a line that is not a mount's.
    private static func mount(in line: ArraySlice<UInt8>) -> (device: UInt64, isLocal: Bool)? {
        var device: UInt64?
        var field = 0
        var fieldStart = line.startIndex
        var afterSeparator = false
        while fieldStart <= line.endIndex {
            let fieldEnd = line[fieldStart...].firstIndex(of: UInt8(ascii: " ")) ?? line.endIndex
            let text = line[fieldStart..<fieldEnd]
            if field == 2 {
                guard let numbers = deviceNumbers(text) else { return nil }
                device = numbers
            } else if afterSeparator, let device {
                return (device, localTypes.contains(String(decoding: text, as: UTF8.self)))
            } else if field > 3, text.count == 1, text.first == UInt8(ascii: "-") {
                afterSeparator = true
            }
            field += 1
            fieldStart = fieldEnd + 1
        }
        return nil
    }

    /// The device of a `major:minor` field, or nil when it is not two decimal numbers.
    private static func deviceNumbers(_ text: ArraySlice<UInt8>) -> UInt64? {
        guard let colon = text.firstIndex(of: UInt8(ascii: ":")),
              let major = decimal(text[..<colon]), let minor = decimal(text[(colon + 1)...]) else { return nil }
        return device(major: major, minor: minor)
    }

    /// The value of one or more decimal digits, or nil (no digit, another byte, or past `UInt64`).
    private static func decimal(_ digits: ArraySlice<UInt8>) -> UInt64? {
        guard !digits.isEmpty else { return nil }
        var value: UInt64 = 0
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = shifted.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }
            value = sum
        }
        return value
    }

    /// glibc's `makedev`: the `st_dev` of a device's major and minor numbers.
    package static func device(major: UInt64, minor: UInt64) -> UInt64 {
        (major & 0xFFFF_F000) << 32 | (major & 0xFFF) << 8 | (minor & 0xFFFF_FF00) << 12 | (minor & 0xFF)
    }
}
