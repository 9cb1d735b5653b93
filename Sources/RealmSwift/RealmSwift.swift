// Realm's module name for Porter's typed API: `import RealmSwift` gives exactly what
// `import Porter` gives, so code written for RealmSwift 10.x builds with no edits.
@_exported import Porter
