import Hummingbird

#if canImport(Glibc)
    import Glibc
#endif

/// The body of `GET /stats`: what a load test checks once the load is over.
struct ServerStats: ResponseEncodable {
    /// Request contexts alive now (zero when no request is running: none was kept or leaked).
    let liveContexts: Int
    /// Request contexts made since the process started.
    let contextsMade: Int
    /// The process's resident memory in bytes, from `/proc/self/statm` (nil where there is none).
    let residentBytes: Int?

    /// The numbers as they are now.
    static func now() -> ServerStats {
        ServerStats(
            liveContexts: CallContext.liveCount, contextsMade: CallContext.madeCount, residentBytes: residentBytes())
    }

    /// Resident pages (statm's second field) times the page size; Linux only.
    private static func residentBytes() -> Int? {
        #if canImport(Glibc)
            let file = open("/proc/self/statm", O_RDONLY)
            guard file >= 0 else { return nil }
            defer { close(file) }
            var buffer = [UInt8](repeating: 0, count: 128)
            let count = read(file, &buffer, buffer.count)
            guard count > 0 else { return nil }
            let fields = String(decoding: buffer[..<count], as: UTF8.self).split(separator: " ")
            guard fields.count > 1, let residentPages = Int(fields[1]) else { return nil }
            return residentPages * sysconf(Int32(_SC_PAGESIZE))
        #else
            return nil
        #endif
    }
}
