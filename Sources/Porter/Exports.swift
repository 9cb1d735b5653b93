// The umbrella module: one `import Porter` gives the engine, diff, migration and interchange APIs.
@_exported import PorterModel
@_exported import PorterDocument
@_exported import PorterStore
@_exported import PorterDiff
@_exported import PorterMigration
@_exported import PorterInterchange
@_exported import PorterRealmFile
@_exported import PorterBSON
@_exported import PorterJSON
@_exported import PorterRealm
@_exported import PorterQuery
