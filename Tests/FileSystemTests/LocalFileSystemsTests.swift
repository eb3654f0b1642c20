@testable import FileSystem
import Foundation
import Testing
import TestSupport

@Suite("LocalFileSystems: which devices hold a local file system")
struct LocalFileSystemsTests {
    @Test("mountinfo lines give each device and whether its type is local; malformed lines are skipped")
    func parsesMountInfo() {
        let text = """
            22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
            25 22 0:23 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw
            40 22 0:35 / /mnt/share rw,relatime shared:20 master:3 - nfs4 server:/export rw,vers=4.2
            41 22 0:36 / /home/me/remote rw,nosuid,nodev,relatime - fuse.sshfs me@host: rw,user_id=1000
            42 22 259:3 / /data rw,relatime - xfs /dev/nvme0n1p3 rw
            43 22 0:37 / /tmp rw - tmpfs tmpfs rw
            44 22 4096:1048576 / /big rw - btrfs /dev/big rw
            not a mount line
            45 22 x:y / /bad rw - ext4 /dev/bad rw
            """
        let devices = LocalFileSystems.mountedDevices(mountInfo: Array(text.utf8))
        let expected: [UInt64: Bool] = [
            LocalFileSystems.device(major: 8, minor: 1): true,
            LocalFileSystems.device(major: 0, minor: 23): false,
            LocalFileSystems.device(major: 0, minor: 35): false,
            LocalFileSystems.device(major: 0, minor: 36): false,
            LocalFileSystems.device(major: 259, minor: 3): true,
            LocalFileSystems.device(major: 0, minor: 37): true,
            LocalFileSystems.device(major: 4096, minor: 1_048_576): true,
        ]
        #expect(devices == expected)
        // glibc's makedev, large numbers included.
        #expect(LocalFileSystems.device(major: 8, minor: 1) == 0x801)
        #expect(LocalFileSystems.device(major: 4096, minor: 1_048_576) == 0x1001_0000_0000)
    }

    @Test("a file's st_dev is the device mountinfo lists for its mount; procfs is not local")
    func realDevices() throws {
        let directory = TemporaryDirectory()
        let file = directory.file("local.bin", bytes: 10)
        let listed = LocalFileSystems.mountedDevices(mountInfo: Array(try String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8).utf8))
        let device = try #require(FileStamp.current(of: file)?.stamp.identity?.device)
        let isLocal = try #require(listed[device], "the temporary directory's device is listed in mountinfo")
        #expect(LocalFileSystems.contains(device: device) == isLocal)
        let procDevice = try #require(FileStamp.current(of: "/proc/self/status")?.stamp.identity?.device)
        #expect(listed[procDevice] == false)
        #expect(!LocalFileSystems.contains(device: procDevice))
        #expect(!LocalFileSystems.contains(device: UInt64.max), "a device no mount lists")
    }

    @Test("the whole table is read, not its first 4 KiB: a mount listed late is found local",
          .enabled(if: Tmpfs.isPermitted, "mounting tmpfs needs root (CAP_SYS_ADMIN); skipped"))
    func readsTheWholeTable() throws {
        // Each line is about 100 bytes: 48 more mounts push the last one past 4 KiB.
        let mounts = try (0..<48).map { _ in try Tmpfs(bytes: 65_536) }
        defer { mounts.forEach { $0.unmount() } }
        let tableBytes = try DescriptorInput.readFile(atPath: "/proc/self/mountinfo").get().count
        #expect(tableBytes > 4096)
        var status = stat()
        let last = try #require(mounts.last)
        try #require(stat(last.path, &status) == 0)
        #expect(LocalFileSystems.contains(device: UInt64(status.st_dev)), "the last tmpfs is listed at byte \(tableBytes - 200) or so")
    }
}
