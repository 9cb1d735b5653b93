import PorterDocument

extension Importer {
    /// Refuses a document of a class without a primary key in upsert or merge mode, as Realm's
    /// `add(_:update:)` does: such an object has nothing to be matched by, so adding it again
    /// would duplicate it. One error per class; the whole import is then rolled back.
    func refuseKeyless(_ className: String, source: String, label: String) {
        guard refusedKeyless.insert(className).inserted else { return }
        problems.add(
            source: source, label: label,
            message: "'\(className)' does not have a primary key and can not be updated: --mode "
                + "\(options.mode.rawValue) matches objects by primary key (import \(className)'s documents "
                + "with --mode insert)")
    }
}
