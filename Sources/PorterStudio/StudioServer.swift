import Foundation
import Hummingbird
import Logging
import Porter
import PorterModel
import PorterStore

/// `porter studio`: a web server on 127.0.0.1 showing one file (the Studio guide).
///
/// The page (HTML, CSS, JavaScript from the module's `Assets`) is served to anyone on the
/// machine; every `/api` route needs the session's random token (`?token=` or the
/// `X-Porter-Token` header), 401 without it, so other local users cannot read the data.
package struct StudioServer: Sendable {
    /// The file shown.
    let store: StudioStore
    /// The random token every API request carries.
    package let token: String

    /// A server for `file`; `writable` (a Porter database opened read-write) allows the write routes.
    package init(file: StudioFile, writable: Bool, token: String = StudioServer.makeToken()) {
        store = StudioStore(file: file, writable: writable)
        self.token = token
    }

    /// A server for a Realm file opened with `--write`: its working copy is edited, Save writes the file.
    package init(realmCopy: StudioRealmCopy, token: String = StudioServer.makeToken()) {
        store = StudioStore(file: .porter(realmCopy.database), writable: true, realmCopy: realmCopy)
        self.token = token
    }

    /// 32 random hex digits.
    package static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max, using: &generator)) }
            .joined()
    }

    /// The routes: the page, its assets and the JSON API.
    package func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/") { _, _ in try Self.asset("index.html") }
        router.get("/assets/:name") { _, context in try Self.asset(context.parameters.require("name")) }
        let api = router.group("api").add(middleware: TokenCheck(token: token))
        let store = self.store
        api.get("info") { _, _ in try await Self.answer { try await store.access { try store.info() } } }
        api.get("file") { _, _ in
            try await Self.answer {
                let state = store.fileState()
                return .object([JSONMember("mtime", .int(state.mtime)), JSONMember("size", .int(state.size))])
            }
        }
        api.get("classes/:class/objects") { request, context in
            try await Self.answer {
                let className = try context.parameters.require("class")
                let query = request.uri.queryParameters
                let offset = try Self.integer(query, "offset", default: 0)
                let limit = try Self.integer(query, "limit", default: 50)
                let sort = query.get("sort").flatMap { $0.isEmpty ? nil : $0 }
                let descending = query.get("descending") == "true"
                let text = query.get("query")
                return try await store.access {
                    try store.page(
                        className: className, offset: offset, limit: limit, sort: sort, descending: descending,
                        query: text)
                }
            }
        }
        api.get("classes/:class/objects/:key") { _, context in
            try await Self.answer {
                let className = try context.parameters.require("class")
                let text = try context.parameters.require("key")
                guard let key = Int64(text) else { throw StudioRequestError("object key '\(text)' is not an integer") }
                return try await store.access { try store.object(className: className, key: key) }
            }
        }
        api.get("classes/:class/export") { request, context in
            do {
                let className = try context.parameters.require("class")
                let query = request.uri.queryParameters
                let text = query.get("query").flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
                let sort = query.get("sort").flatMap { $0.isEmpty ? nil : $0 }
                return try StudioExport.response(
                    store: store, className: className, format: query.get("format") ?? "csv", query: text,
                    sort: sort, descending: query.get("descending") == "true")
            } catch {
                return Self.failure(error)
            }
        }
        StudioWrites.add(to: api, store: store)
        return router
    }

    /// Serves until the task is cancelled (Ctrl-C), on 127.0.0.1 only; `port` 0 picks a free
    /// port. `started` gets the page's URL once the server listens.
    /// `signals` false (tests): no SIGINT/SIGTERM handling, the task's cancellation stops it.
    package func run(port: Int, signals: Bool = true, started: @escaping @Sendable (String) -> Void) async throws {
        // A download cancelled by the browser must not end the process through SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        var logger = Logger(label: "porter-studio")
        // Shutdown on Ctrl-C logs closed channels as errors: nothing a user can act on.
        logger.logLevel = .critical
        let token = self.token
        let app = Application(
            router: router(), configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                started("http://127.0.0.1:\(bound)/?token=\(token)")
            }, logger: logger)
        try await app.runService(gracefulShutdownSignals: signals ? [.sigterm, .sigint] : [])
    }

    // MARK: - Answers

    /// Runs `body` and answers its JSON, or the request's error as one line of JSON.
    static func answer(_ body: () async throws -> JSONValue) async throws -> Response {
        do {
            return json(try await body())
        } catch {
            return failure(error)
        }
    }

    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: value.text)))
    }

    /// `{"error": "…"}`: 400 for a bad request (or the status it names), 500 for a failed read.
    static func failure(_ error: Error) -> Response {
        let status: HTTPResponse.Status
        let message: String
        switch error {
        case let error as StudioRequestError:
            status = .init(code: error.status)
            message = error.message
        case let error as PorterError:
            // What the engine refuses (a rule, a missing class or object): the request's fault.
            status = error.code == .io || error.code == .notADatabase ? .internalServerError : .badRequest
            message = error.headline
        case let error as HTTPError:
            status = error.status
            message = error.body ?? "\(error.status.reasonPhrase)"
        default:
            status = .internalServerError
            message = "\(error)"
        }
        let line = message.split(separator: "\n").first.map(String.init) ?? message
        return json(.object([JSONMember("error", .string(line))]), status: status)
    }

    /// An integer query parameter, or a 400 naming it.
    static func integer(_ query: Parameters, _ name: String, default value: Int) throws -> Int {
        guard let text = query.get(name) else { return value }
        guard let number = Int(text) else { throw StudioRequestError("\(name) must be an integer, not '\(text)'") }
        return number
    }

    // MARK: - Assets

    /// The page's files by name, with their content types.
    static let assetTypes = [
        "index.html": "text/html; charset=utf-8", "studio.css": "text/css; charset=utf-8",
        "studio.js": "text/javascript; charset=utf-8",
    ]

    static func asset(_ name: String) throws -> Response {
        guard let type = assetTypes[name],
            let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Assets"),
            let data = FileManager.default.contents(atPath: url.path)
        else { throw HTTPError(.notFound) }
        var headers = HTTPFields()
        headers[.contentType] = type
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// 401 for an API request without the session's token.
struct TokenCheck<Context: RequestContext>: RouterMiddleware {
    let token: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let given = request.headers[.init("X-Porter-Token")!] ?? request.uri.queryParameters.get("token")
        guard let given, given == token else {
            return StudioServer.json(
                .object([JSONMember("error", .string("missing or wrong token: use the URL porter studio printed"))]),
                status: .unauthorized)
        }
        return try await next(request, context)
    }
}
