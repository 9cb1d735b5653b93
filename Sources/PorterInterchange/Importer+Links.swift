import Foundation
import PorterModel

/// A property of an imported object waiting for forward references, with where it came from.
struct PendingEntry {
    var owner: ObjectLink
    var property: DeferredProperty
    var source: String
    var label: String
}

extension Importer {
    /// Drops pending links of an object that a later document rewrote (upsert replaces every
    /// property; merge the ones the document names), so an older reference cannot overwrite
    /// the newer value.
    func cancelPending(of owner: ObjectLink, rewritten read: ReadObject) {
        guard let indexes = pendingByOwner.removeValue(forKey: owner) else { return }
        for index in indexes {
            guard let entry = pending[index] else { continue }
            let top: String
            if case .property(let name)? = entry.property.ownerSteps.first {
                top = name
            } else {
                top = entry.property.property
            }
            if options.mode == .upsert || read.value(top) != nil {
                pending[index] = nil
            } else {
                pendingByOwner[owner, default: []].append(index)
            }
        }
    }

    /// Resolves every pending reference against the imported and existing objects and writes
    /// the completed values; a reference to nothing is reported with its document and field.
    func completePendingLinks() throws {
        for index in pending.indices {
            guard !problems.isFull else { return }
            guard let entry = pending[index] else { continue }
            pending[index] = nil
            var missing = false
            func resolve(_ slot: LinkSlot) throws -> Value {
                switch slot {
                case .value(let value): return value
                case .reference(let ref):
                    if let key = try resolver.lookup(ref.targetClass, ref.key, final: true) {
                        report.deferredLinks += 1
                        return .link(ObjectLink(ref.targetClass, key))
                    }
                    problems.add(
                        source: entry.source, label: entry.label, path: ref.path,
                        message:
                            "link to a missing object: no \(ref.targetClass) with \(ref.key.description) in this import or in the database"
                    )
                    missing = true
                    return .null
                case .nestedList(let slots):
                    return .list(try slots.map(resolve))
                case .nestedMap(let keys, let slots):
                    var map: [String: Value] = [:]
                    for (key, slot) in zip(keys, slots) { map[key] = try resolve(slot) }
                    return .map(map)
                }
            }
            let value: Value
            switch entry.property.value {
            case .single(let slot): value = try resolve(slot)
            case .list(let slots): value = .list(try slots.map(resolve))
            case .set(let slots): value = .set(try slots.map(resolve))
            case .map(let entries):
                var map: [String: Value] = [:]
                for (key, slot) in entries { map[key] = try resolve(slot) }
                value = .map(map)
            }
            guard !missing else { continue }
            do {
                // An object inserted by this import (insert mode) has this list empty: its links,
                // all found, go straight in (the store's update would look each one up again).
                if options.mode == .insert, entry.property.ownerSteps.isEmpty, case .list(let links) = value,
                    try inserter(entry.owner.className).fillLinkList(entry.owner.key, entry.property.property, links)
                {
                    continue
                }
                let target = try locate(entry.owner, entry.property.ownerSteps)
                try database.update(target.className, target.key, [entry.property.property: value], policy: .all)
            } catch let error as PorterError where error.code != .busy && error.code != .io {
                problems.add(
                    source: entry.source, label: entry.label, path: entry.property.property, message: error.message)
            }
        }
        pending.removeAll()
        pendingByOwner.removeAll()
    }

    /// The (embedded) object reached from `owner` by `steps`.
    private func locate(_ owner: ObjectLink, _ steps: [PathStep]) throws -> ObjectLink {
        var current = owner
        var i = 0
        while i < steps.count {
            guard case .property(let name) = steps[i] else { throw lost(owner, steps) }
            var value = try database.value(current.className, current.key, name)
            i += 1
            if i < steps.count, case .index(let n) = steps[i] {
                guard case .list(let elements) = value, elements.indices.contains(n) else { throw lost(owner, steps) }
                value = elements[n]
                i += 1
            } else if i < steps.count, case .key(let k) = steps[i] {
                guard case .map(let entries) = value, let element = entries[k] else { throw lost(owner, steps) }
                value = element
                i += 1
            }
            guard case .link(let next) = value else { throw lost(owner, steps) }
            current = next
        }
        return current
    }

    private func lost(_ owner: ObjectLink, _ steps: [PathStep]) -> PorterError {
        PorterError(.notFound, "the embedded object holding this link is gone from \(owner)")
    }
}
