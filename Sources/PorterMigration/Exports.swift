// Every module re-exports the shared object engine types so callers need one import; the
// migration runtime also hands out the store and diff types it works with.
@_exported import PorterModel
@_exported import PorterStore
@_exported import PorterDiff
