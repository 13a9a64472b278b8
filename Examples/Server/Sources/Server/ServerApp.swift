import Hummingbird
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small JSON service: `GET /greet`, `GET /slow` (the same, after a delay) and `GET /stats`.
///
///     swift run -c release Server [--port 8080] [--hostname 127.0.0.1] [--hand-wired]
///
/// `--port 0` binds any free port. Once listening, the server prints one line,
/// `Listening on http://HOST:PORT (WIRING)`, and runs until SIGTERM or SIGINT, after which it
/// finishes the requests in flight and exits with status 0. The environment may set `LOG_LEVEL`
/// (`debug` logs each greeting), `GREETING` and `SLOW_RESPONSE_MS` (see ``ServerSettings``).
@main
struct ServerApp {
    static func main() async throws {
        let options: Options
        do {
            options = try Options(CommandLine.arguments.dropFirst())
        } catch {
            write(line: "\(error)\nusage: Server [--port PORT] [--hostname HOST] [--hand-wired]", to: STDERR_FILENO)
            exit(2)
        }
        var logger = Logger(label: "Server")
        // LOG_LEVEL=debug shows each greeting logged by the decorator.
        if let level = getenv("LOG_LEVEL").flatMap({ Logger.Level(rawValue: String(cString: $0)) }) {
            logger.logLevel = level
        }
        let router = Router()
        try await options.wiring.addGreetingRoutes(to: router, logger: logger)
        router.get("stats") { _, _ in ServerStats.now() }

        let app = Application(
            router: router,
            configuration: .init(address: .hostname(options.hostname, port: options.port)),
            onServerRunning: { channel in
                // The line a script waits for.
                let port = channel.localAddress?.port ?? options.port
                write(line: "Listening on http://\(options.hostname):\(port) (\(options.wiring))", to: STDOUT_FILENO)
            },
            logger: logger)
        // Stops gracefully on SIGTERM and SIGINT (ServiceLifecycle).
        try await app.runService()
        logger.info("Stopped", metadata: ["liveContexts": "\(CallContext.liveCount)"])
    }
}

/// Writes `line` unbuffered: a script reading a pipe sees it at once.
private func write(line: String, to file: Int32) {
    var bytes = Array("\(line)\n".utf8)
    _ = bytes.withUnsafeMutableBytes { write(file, $0.baseAddress, $0.count) }
}

/// The command line.
struct Options {
    var hostname = "127.0.0.1"
    var port = 8080
    var wiring = Wiring.container

    /// Options from the command line's `arguments` (without the program's name).
    init(_ arguments: ArraySlice<String>) throws(OptionError) {
        var arguments = arguments
        while let argument = arguments.popFirst() {
            switch argument {
            case "--hand-wired": wiring = .handWired
            case "--hostname": hostname = try Self.value(of: argument, from: &arguments)
            case "--port":
                let value = try Self.value(of: argument, from: &arguments)
                guard let port = Int(value), (0...65535).contains(port) else { throw .invalidPort(value) }
                self.port = port
            default: throw .unknown(argument)
            }
        }
    }

    private static func value(of option: String, from arguments: inout ArraySlice<String>) throws(OptionError)
        -> String
    {
        guard let value = arguments.popFirst() else { throw .missingValue(option) }
        return value
    }
}

/// A command line the server does not understand.
enum OptionError: Error, CustomStringConvertible {
    case unknown(String)
    case missingValue(String)
    case invalidPort(String)

    var description: String {
        switch self {
        case .unknown(let option): "unknown option '\(option)'"
        case .missingValue(let option): "\(option) needs a value"
        case .invalidPort(let value): "'\(value)' is not a port (0 to 65535)"
        }
    }
}
