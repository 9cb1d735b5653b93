// Every module re-exports the shared object engine types so callers need one import.
@_exported import PorterModel
@_exported import PorterStore
