import Foundation
import PorterDocument
import PorterInterchange
import PorterModel
import PorterRealm
import PorterRealmFile
import PorterStore

// The C entry points of `porter.h` (bindings/c/include/porter.h documents each one). Every one
// runs through `call`, so no Swift error, and no NULL or stale pointer, ever crosses into C.

/// The ABI version `porter.h` describes (`PORTER_ABI_VERSION`).
let abiVersion: UInt32 = 1

/// `PORTER_OPEN_SKIP_CHECK`: read without the check first, as `--skip-check`.
let openSkipCheck: UInt32 = 1

/// The library's version text, made once and never freed.
nonisolated(unsafe) let versionText: UnsafeMutablePointer<CChar> = strdup(Database.porterVersion)!

@_cdecl("porter_abi_version")
public func porter_abi_version() -> UInt32 { abiVersion }

@_cdecl("porter_version")
public func porter_version() -> UnsafePointer<CChar> { UnsafePointer(versionText) }

@_cdecl("porter_free")
public func porter_free(_ pointer: UnsafeMutableRawPointer?) { free(pointer) }

@_cdecl("porter_open")
public func porter_open(
    _ path: UnsafePointer<CChar>?, _ key: UnsafePointer<UInt8>?, _ keyLength: Int, _ flags: UInt32,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    call {
        guard let out else { throw CallError(.invalidArgument, "the handle pointer is NULL") }
        out.pointee = nil
        guard flags & ~openSkipCheck == 0 else {
            throw CallError(.invalidArgument, "unknown flags \(flags) (PORTER_OPEN_SKIP_CHECK is the only one)")
        }
        let path = try string(path, "the path")
        let key = try keyBytes(key, keyLength)
        try RealmFileOpening.requireFile(path)
        let file = try RealmFileOpening.open(path, key: key)
        out.pointee = Registry.shared.add(FileObject(file: file, key: key, skipCheck: flags & openSkipCheck != 0))
    }
}

@_cdecl("porter_close")
public func porter_close(_ handle: OpaquePointer?) -> Int32 {
    call(handle) {
        let object = try Registry.shared.remove(handle, as: FileObject.self, what: "file")
        // Waits for a call still running on another thread.
        locked(object) {}
    }
}

@_cdecl("porter_error_code")
public func porter_error_code(_ handle: OpaquePointer?) -> Int32 {
    lastError(handle)?.status.rawValue ?? Status.ok.rawValue
}

@_cdecl("porter_last_error")
public func porter_last_error(_ handle: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
    guard let error = lastError(handle) else { return nil }
    return try? mallocCopy(Array(error.message.utf8))
}

/// The last failure on a live handle, else the calling thread's.
private func lastError(_ handle: OpaquePointer?) -> CallError? {
    if let object = Registry.shared.object(handle), let error = locked(object, { object.lastError }) {
        return error
    }
    return ThreadError.get()
}

@_cdecl("porter_schema_json")
public func porter_schema_json(
    _ handle: OpaquePointer?, _ json: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ length: UnsafeMutablePointer<Int>?
) -> Int32 {
    call(handle) {
        let object = try Registry.shared.get(handle, as: FileObject.self, what: "file")
        try give(locked(object) { object.schema.jsonString(pretty: true) }, json, length)
    }
}

@_cdecl("porter_class_count")
public func porter_class_count(_ handle: OpaquePointer?, _ count: UnsafeMutablePointer<Int>?) -> Int32 {
    call(handle) {
        let object = try Registry.shared.get(handle, as: FileObject.self, what: "file")
        guard let count else { throw CallError(.invalidArgument, "the count pointer is NULL") }
        count.pointee = locked(object) { object.schema.classes.count }
    }
}

@_cdecl("porter_class_name")
public func porter_class_name(
    _ handle: OpaquePointer?, _ index: Int, _ name: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    call(handle) {
        let object = try Registry.shared.get(handle, as: FileObject.self, what: "file")
        let classes = locked(object) { object.schema.classes }
        guard index >= 0, index < classes.count else {
            throw CallError(.invalidArgument, "class index \(index) is out of range (the file has \(classes.count))")
        }
        try give(classes[index].name, name, nil)
    }
}

@_cdecl("porter_object_count")
public func porter_object_count(
    _ handle: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ count: UnsafeMutablePointer<UInt64>?
) -> Int32 {
    call(handle) {
        let object = try Registry.shared.get(handle, as: FileObject.self, what: "file")
        let name = try string(className, "the class name")
        guard let count else { throw CallError(.invalidArgument, "the count pointer is NULL") }
        count.pointee = UInt64(try locked(object) { try object.objectCount(name) })
    }
}

@_cdecl("porter_cursor_open")
public func porter_cursor_open(
    _ handle: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ query: UnsafePointer<CChar>?, _ flags: UInt32,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    call(handle) {
        let object = try Registry.shared.get(handle, as: FileObject.self, what: "file")
        guard let out else { throw CallError(.invalidArgument, "the cursor pointer is NULL") }
        out.pointee = nil
        let name = try string(className, "the class name")
        let formats = [0: "ejson", 1: "ejson-canonical", 2: "bson", 3: "json"]
        guard let format = formats[Int(flags)] else {
            throw CallError(.invalidArgument, "unknown cursor flags \(flags) (0 relaxed, 1 canonical, 2 BSON, 3 JSON)")
        }
        let cursor = try locked(object) {
            try object.requireChecked()
            return try CursorObject(
                path: object.file.path, key: object.key, className: name, query: query.map { String(cString: $0) },
                format: format)
        }
        out.pointee = Registry.shared.add(cursor)
    }
}

@_cdecl("porter_cursor_next")
public func porter_cursor_next(
    _ handle: OpaquePointer?, _ document: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ length: UnsafeMutablePointer<Int>?
) -> Int32 {
    call(handle) {
        let cursor = try Registry.shared.get(handle, as: CursorObject.self, what: "cursor")
        guard let document else { throw CallError(.invalidArgument, "the document pointer is NULL") }
        document.pointee = nil
        length?.pointee = 0
        guard let next = try locked(cursor, { try cursor.next() }) else { return }
        document.pointee = try mallocCopy(next)
        length?.pointee = next.count
    }
}

@_cdecl("porter_cursor_next_batch")
public func porter_cursor_next_batch(
    _ handle: OpaquePointer?, _ maxObjects: Int, _ documents: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ length: UnsafeMutablePointer<Int>?, _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    call(handle) {
        let cursor = try Registry.shared.get(handle, as: CursorObject.self, what: "cursor")
        guard let documents, let count else {
            throw CallError(.invalidArgument, "the documents or count pointer is NULL")
        }
        documents.pointee = nil
        count.pointee = 0
        length?.pointee = 0
        guard maxObjects > 0 else { throw CallError(.invalidArgument, "max_objects is 0") }
        guard let batch = try locked(cursor, { try cursor.nextBatch(limit: maxObjects) }) else { return }
        documents.pointee = try mallocCopy(batch.bytes)
        length?.pointee = batch.bytes.count
        count.pointee = batch.count
    }
}

@_cdecl("porter_cursor_close")
public func porter_cursor_close(_ handle: OpaquePointer?) -> Int32 {
    call(handle) {
        let cursor = try Registry.shared.remove(handle, as: CursorObject.self, what: "cursor")
        locked(cursor) { cursor.close() }
    }
}

/// `int (*)(uint64_t done, uint64_t total, void *context)`: nonzero cancels.
public typealias ProgressCallback = @convention(c) (UInt64, UInt64, UnsafeMutableRawPointer?) -> Int32

@_cdecl("porter_export")
public func porter_export(
    _ handle: OpaquePointer?, _ outPath: UnsafePointer<CChar>?, _ format: UnsafePointer<CChar>?,
    _ progress: ProgressCallback?, _ context: UnsafeMutableRawPointer?
) -> Int32 {
    call(handle) {
        let object = try Registry.shared.get(handle, as: FileObject.self, what: "file")
        let out = try string(outPath, "the output path")
        let format = try string(format, "the format")
        try locked(object) {
            try object.requireChecked()
            try object.export(to: out, format: format, progress: progress, context: context)
        }
    }
}

@_cdecl("porter_check_json")
public func porter_check_json(
    _ path: UnsafePointer<CChar>?, _ key: UnsafePointer<UInt8>?, _ keyLength: Int,
    _ json: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ length: UnsafeMutablePointer<Int>?
) -> Int32 {
    fileReport(path, key, keyLength, json, length) { RealmFileOpening.checkReport($0, key: $1).json }
}

@_cdecl("porter_inspect_json")
public func porter_inspect_json(
    _ path: UnsafePointer<CChar>?, _ key: UnsafePointer<UInt8>?, _ keyLength: Int,
    _ json: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ length: UnsafeMutablePointer<Int>?
) -> Int32 {
    fileReport(path, key, keyLength, json, length) { Summary.json(path: $0, key: $1) }
}

/// A JSON report on the file at `path` (opened or not), handed to C as text.
private func fileReport(
    _ path: UnsafePointer<CChar>?, _ key: UnsafePointer<UInt8>?, _ keyLength: Int,
    _ json: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ length: UnsafeMutablePointer<Int>?,
    _ report: (String, [UInt8]?) -> JSONValue
) -> Int32 {
    call {
        let path = try string(path, "the path")
        let key = try keyBytes(key, keyLength)
        guard json != nil else { throw CallError(.invalidArgument, "the output pointer is NULL") }
        try RealmFileOpening.requireFile(path)
        try give(report(path, key).serialized(pretty: true), json, length)
    }
}
