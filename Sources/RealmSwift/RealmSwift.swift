// Realm's module name for Porter's typed API: `import RealmSwift` gives exactly what
// `import Porter` gives, so code written for RealmSwift 10.x builds with no edits.
@_exported import Porter
// Realm's module re-exports Foundation: files that import only RealmSwift use `Data`, `Date`,
// `UUID`, `NSLog`, `JSONSerialization` …
@_exported import Foundation

/// Realm's `SortDescriptor` (Porter's), declared in this module so that it shadows Foundation's
/// generic `SortDescriptor<Compared>`, as Realm's own declaration does: `SortDescriptor(keyPath:)`
/// and `RealmSwift.SortDescriptor` name it in files that import RealmSwift.
public typealias SortDescriptor = Porter.SortDescriptor

#if !canImport(ObjectiveC)
/// Runs `body` and returns its result (Realm's tests and apps wrap work in
/// `autoreleasepool { … }`; Linux has no autorelease pools, so this is a plain call).
public func autoreleasepool<Result>(invoking body: () throws -> Result) rethrows -> Result {
    try body()
}
#endif
