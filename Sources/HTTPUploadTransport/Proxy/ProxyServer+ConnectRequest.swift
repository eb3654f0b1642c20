import UploadModel
import UploadProtocols

extension ProxyServer {
    /// The `CONNECT` request that asks the proxy for a tunnel to `host:port`, with `Host` and
    /// (when the URL has credentials) `Proxy-Authorization`.
    ///
    /// - Parameters:
    ///   - host: The server's host name or address.
    ///   - port: The server's port.
    /// - Returns: The request's head, ending with its empty line.
    func connectRequest(toHost host: String, port: Int) -> String {
        let authority = Self.authority(host: host, port: port)
        var request = "CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\n"
        if let authorization { request += "Proxy-Authorization: \(authorization)\r\n" }
        return request + "\r\n"
    }
}
