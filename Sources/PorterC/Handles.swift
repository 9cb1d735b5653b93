import Foundation
import PorterModel
import PorterRealm
import PorterRealmFile

/// The C library's status codes (`porter.h`, `porter_status`): 0 is success; the numbers are part
/// of the ABI and never change meaning.
enum Status: Int32 {
    case ok = 0
    case invalidArgument = 1
    case closedHandle = 2
    case io = 3
    case notARealmFile = 4
    case notFound = 5
    case usage = 6
    case cancelled = 7
    case invalidData = 8
    case other = 9

    /// The status of a Porter error.
    init(_ code: PorterError.Code) {
        switch code {
        case .io, .busy: self = .io
        case .notADatabase: self = .notARealmFile
        case .notFound: self = .notFound
        case .usage, .parseError: self = .usage
        case .invalidSchema, .invalidValue, .invalidInput, .constraintViolation, .duplicatePrimaryKey:
            self = .invalidData
        default: self = .other
        }
    }
}

/// A failure handed to C: the status and the one-line message the command line prints.
struct CallError: Error {
    var status: Status
    var message: String

    init(_ status: Status, _ message: String) {
        self.status = status
        self.message = message
    }

    /// Any error thrown by Porter's code, as C sees it.
    init(_ error: any Error) {
        switch error {
        case let error as CallError: self = error
        case let error as PorterError: self.init(Status(error.code), error.headline)
        default: self.init(.other, "\(error)")
        }
    }
}

/// What a live handle is: an open Realm file or a cursor.
protocol HandleObject: AnyObject {
    /// Serializes the calls on this handle (recursive: a progress callback may call back in).
    var lock: NSRecursiveLock { get }
    /// The last failure of a call on this handle.
    var lastError: CallError? { get set }
}

/// An open Realm file: the file, and how to open it again (a cursor reads its own copy).
final class FileObject: HandleObject {
    let lock = NSRecursiveLock()
    var lastError: CallError?
    let file: RealmFile
    let key: [UInt8]?
    /// The file's schema, rebuilt from the file once.
    let schema: Schema

    /// `PORTER_OPEN_SKIP_CHECK`: cursors and exports read the file without `porter check`'s
    /// checks first (the command line's `--skip-check`).
    let skipCheck: Bool
    /// The outcome of the check, made once, at the first cursor or export: nil until then.
    private var checkOutcome: Result<Void, Error>?

    init(file: RealmFile, key: [UInt8]?, skipCheck: Bool) {
        self.file = file
        self.key = key
        self.skipCheck = skipCheck
        schema = file.schema
    }

    /// Refuses, as `porter export` does, to read out of a file that fails `porter check`'s checks:
    /// a damaged file must not be copied into something that looks sound. Checked once per
    /// handle (the check walks the whole file); call with the handle's lock held.
    func requireChecked() throws {
        guard !skipCheck else { return }
        if checkOutcome == nil {
            checkOutcome = Result {
                if let refusal = RealmFileOpening.checkRefusal(try file.check(), path: file.path, isRealm: true) {
                    throw refusal
                }
            }
        }
        try checkOutcome?.get()
    }
}

/// Live handles by the opaque pointer C holds: never a real address, so a closed or foreign
/// pointer is looked up and refused instead of dereferenced (use after close returns
/// `PORTER_ERR_CLOSED_HANDLE`).
final class Registry: @unchecked Sendable {
    static let shared = Registry()
    private let lock = NSLock()
    private var objects: [UInt: any HandleObject] = [:]
    /// Handles count up from here in steps of 16 and are never reused.
    private var next: UInt = 0x7e57_0000

    /// Registers `object` and returns its handle.
    func add(_ object: any HandleObject) -> OpaquePointer {
        lock.lock()
        defer { lock.unlock() }
        next += 16
        objects[next] = object
        return OpaquePointer(bitPattern: next)!
    }

    /// The live object behind `handle`, if any.
    func object(_ handle: OpaquePointer?) -> (any HandleObject)? {
        guard let handle else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return objects[UInt(bitPattern: handle)]
    }

    /// The live object of type `T` behind `handle`.
    /// - Throws: ``CallError`` for NULL, a closed or unknown handle, or a handle of another kind.
    func get<T: HandleObject>(_ handle: OpaquePointer?, as type: T.Type, what: String) throws -> T {
        guard let handle else { throw CallError(.invalidArgument, "the \(what) handle is NULL") }
        guard let found = object(handle) else {
            throw CallError(.closedHandle, "the \(what) handle is closed or was never opened")
        }
        guard let typed = found as? T else {
            throw CallError(.invalidArgument, "the handle given is not a \(what) handle")
        }
        return typed
    }

    /// Removes and returns the live object of type `T` behind `handle`.
    func remove<T: HandleObject>(_ handle: OpaquePointer?, as type: T.Type, what: String) throws -> T {
        let typed = try get(handle, as: type, what: what)
        lock.lock()
        defer { lock.unlock() }
        guard objects.removeValue(forKey: UInt(bitPattern: handle)) != nil else {
            throw CallError(.closedHandle, "the \(what) handle is closed or was never opened")
        }
        return typed
    }
}

/// The calling thread's last failure (`porter_last_error(NULL)`), in its thread dictionary so
/// that it goes with the thread.
enum ThreadError {
    private static let codeKey = "porter.lastErrorCode"
    private static let messageKey = "porter.lastErrorMessage"

    static func set(_ error: CallError) {
        let dictionary = Thread.current.threadDictionary
        dictionary[codeKey] = NSNumber(value: error.status.rawValue)
        dictionary[messageKey] = NSString(string: error.message)
    }

    static func get() -> CallError? {
        let dictionary = Thread.current.threadDictionary
        guard let code = dictionary[codeKey] as? NSNumber, let message = dictionary[messageKey] as? NSString else {
            return nil
        }
        return CallError(Status(rawValue: code.int32Value) ?? .other, String(message))
    }
}

/// Runs one C entry point: `body`'s failure becomes a status code, recorded for the calling
/// thread and, when `handle` is live, for that handle. Nothing thrown crosses into C.
func call(_ handle: OpaquePointer? = nil, _ body: () throws -> Void) -> Int32 {
    do {
        try body()
        return Status.ok.rawValue
    } catch {
        let failure = CallError(error)
        ThreadError.set(failure)
        if let object = Registry.shared.object(handle) {
            object.lock.lock()
            object.lastError = failure
            object.lock.unlock()
        }
        return failure.status.rawValue
    }
}

/// Runs `body` holding `object`'s lock.
func locked<T>(_ object: any HandleObject, _ body: () throws -> T) rethrows -> T {
    object.lock.lock()
    defer { object.lock.unlock() }
    return try body()
}

/// A copy of `bytes` in memory from `malloc`, NUL-terminated (the caller frees it with `porter_free`).
func mallocCopy(_ bytes: some Collection<UInt8>) throws -> UnsafeMutablePointer<CChar> {
    guard let memory = malloc(bytes.count + 1) else { throw CallError(.other, "out of memory") }
    let buffer = memory.bindMemory(to: UInt8.self, capacity: bytes.count + 1)
    _ = UnsafeMutableBufferPointer(start: buffer, count: bytes.count).initialize(from: bytes)
    buffer[bytes.count] = 0
    return UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: CChar.self)
}

/// Hands `text` to C through `out` (and its byte count, without the NUL, through `length`).
func give(
    _ text: String, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ length: UnsafeMutablePointer<Int>?
) throws {
    try give(Array(text.utf8), out, length)
}

/// Hands `bytes` to C through `out` (and their count through `length`, which may be NULL).
func give(
    _ bytes: [UInt8], _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ length: UnsafeMutablePointer<Int>?
) throws {
    guard let out else { throw CallError(.invalidArgument, "the output pointer is NULL") }
    out.pointee = try mallocCopy(bytes)
    length?.pointee = bytes.count
}

/// A C string argument that must be given, as a Swift string.
func string(_ pointer: UnsafePointer<CChar>?, _ what: String) throws -> String {
    guard let pointer else { throw CallError(.invalidArgument, "\(what) is NULL") }
    return String(cString: pointer)
}

/// Key bytes given as pointer and length: nil when none (NULL, or length 0).
func keyBytes(_ key: UnsafePointer<UInt8>?, _ length: Int) throws -> [UInt8]? {
    guard length != 0 else { return nil }
    guard let key else { throw CallError(.invalidArgument, "the key is NULL but its length is \(length)") }
    guard length == 64 else {
        throw CallError(.usage, "an encryption key is 64 bytes, got \(length)")
    }
    return Array(UnsafeBufferPointer(start: key, count: length))
}
