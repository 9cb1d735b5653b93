import PorterModel

/// A problem found while decoding the file's structure. Internal: the public API turns it into a
/// `PorterError(.notADatabase, …, location: path)`, prefixing the `Class.property` being read.
struct RealmFault: Error, Sendable {
    /// One line saying what is wrong.
    var message: String

    init(_ message: String) { self.message = message }

    /// A ref outside the file: most often a file being written while it is read.
    static func refOutside(_ ref: Int64, size: Int) -> RealmFault {
        RealmFault(
            "ref \(hex(ref)) is outside the file (size \(size)); the file may have changed while reading: copy it with the app closed"
        )
    }

    /// Prefixes the place being read (`Dog.name`), unless the message already names one.
    func located(_ place: String) -> RealmFault {
        RealmFault("\(place): \(message)")
    }
}

/// `0x…` text for refs in messages.
func hex(_ value: Int64) -> String {
    value < 0 ? "-0x" + String(value.magnitude, radix: 16) : "0x" + String(value, radix: 16)
}

/// The deepest nesting accepted anywhere (B+trees, cluster trees, embedded objects): real files
/// stay below 10; a corrupt cycle reaches it quickly.
let maximumDepth = 64

/// The deepest nesting of lists and dictionaries in a mixed value (with the embedded objects
/// around them) accepted: above the 100 levels Porter and the SDKs allow, still a quick stop for a cycle.
let maximumNesting = 128

/// The most elements a B+tree or cluster leaf holds (realm-core's `REALM_MAX_BPNODE_SIZE`, 1000 in
/// every SDK build); a larger count is corruption and would let a tiny file claim millions of values.
let maximumLeafSize = 1000
