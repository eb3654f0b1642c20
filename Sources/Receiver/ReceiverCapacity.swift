/// How many connections and upload files a receiver holds open at once, kept below the
/// process's file descriptor limit so that opening an upload's file never fails with "too many
/// open files".
///
/// Past ``maxConnections`` new connections wait (the server stops accepting; they queue in the
/// kernel's backlog) until one closes; past ``maxUploads`` an upload that comes to open a file
/// (a file part, a tus PATCH) is answered 503 with `Retry-After` (``UploadSlots``). Each
/// connection takes one descriptor and each open upload file one more, and
/// ``reservedDescriptors`` are kept for everything else (the listening socket, standard streams,
/// event loops, the thread pool's short-lived opens). A connection that has sent only a head or
/// the start of a body holds no file, so it takes nothing from the uploads.
public struct ReceiverCapacity: Sendable, Hashable {
    /// The most connections open at once; `nil` derives it from the descriptor limit.
    public var maxConnections: Int?
    /// The most upload files open at once; `nil` derives it from the descriptor limit.
    public var maxUploads: Int?

    /// Descriptors kept for what is not a connection or an upload's open file.
    public static let reservedDescriptors = 64
    /// The most connections a derived limit allows.
    public static let defaultConnectionCap = 10_000
    /// The most upload files open at once a derived limit allows.
    public static let defaultUploadCap = 1_000

    /// Creates a capacity.
    ///
    /// - Parameters:
    ///   - maxConnections: The connection limit, or `nil` for one derived from the descriptor limit.
    ///   - maxUploads: The upload limit, or `nil` for one derived from the descriptor limit.
    public init(maxConnections: Int? = nil, maxUploads: Int? = nil) {
        self.maxConnections = maxConnections
        self.maxUploads = maxUploads
    }

    /// The limits to apply under a descriptor limit: those given, the others derived — a
    /// quarter of the free descriptors for upload files (at most ``defaultUploadCap``), the rest for
    /// connections (at most ``defaultConnectionCap``).
    ///
    /// - Parameter descriptorLimit: The soft `RLIMIT_NOFILE` of the process.
    /// - Returns: The connection and upload limits.
    /// - Throws: ``ReceiverError/invalidConfiguration(reason:)`` when a limit is below 1 or the
    ///   two need more descriptors than the process may open.
    public func resolved(descriptorLimit: Int) throws(ReceiverError) -> (connections: Int, uploads: Int) {
        for (option, value) in [("--max-connections", maxConnections), ("--max-uploads", maxUploads)] {
            if let value, value < 1 {
                throw .invalidConfiguration(reason: .valueOutOfRange(option: option, value: Int64(value), allowed: 1...Int64(Int32.max)))
            }
        }
        let free = max(0, descriptorLimit - Self.reservedDescriptors)
        let uploads = maxUploads ?? min(Self.defaultUploadCap, max(1, free / 4))
        let connections = maxConnections ?? min(Self.defaultConnectionCap, max(1, free - uploads))
        let needed = connections + uploads + Self.reservedDescriptors
        guard needed <= descriptorLimit else {
            throw .invalidConfiguration(
                reason: .descriptorsTooFew(connections: connections, uploads: uploads, needed: needed, limit: descriptorLimit))
        }
        return (connections, uploads)
    }
}
