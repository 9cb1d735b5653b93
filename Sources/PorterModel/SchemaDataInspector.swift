/// A property that links to a class: where incoming links of an object come from.
public struct LinkSource: Sendable, Hashable {
    /// The class holding the link.
    public var className: String
    /// The link, list, set or map of links (or a `mixed` property).
    public var property: Property

    /// Creates a source.
    public init(className: String, property: Property) {
        self.className = className
        self.property = property
    }
}

/// Counts of values in one property.
public struct ValueCounts: Sendable, Hashable {
    /// Objects whose value is set (non-null; for a collection, non-empty).
    public var nonNull: Int
    /// Objects whose value is null (for a collection: null elements).
    public var null: Int

    /// Creates counts.
    public init(nonNull: Int, null: Int) {
        self.nonNull = nonNull
        self.null = null
    }
}

/// A count with a few examples (`Dog(3): 'abc' is not an integer`, `'rex' (2 objects)`).
public struct SampledCount: Sendable, Hashable {
    /// How many there are.
    public var count: Int
    /// Up to a handful of examples.
    public var sample: [String]

    /// Creates a count.
    public init(count: Int, sample: [String] = []) {
        self.count = count
        self.sample = sample
    }
}

/// What a class becoming embedded would do to its objects.
public struct EmbeddingCounts: Sendable, Hashable {
    /// Objects with no incoming link: deleted by the conversion.
    public var orphans: Int
    /// Objects with more than one incoming link: copied once per link.
    public var multiplyLinked: Int
    /// Incoming links from `mixed` properties, which cannot link to embedded objects.
    public var mixedLinks: SampledCount

    /// Creates counts.
    public init(orphans: Int, multiplyLinked: Int, mixedLinks: SampledCount) {
        self.orphans = orphans
        self.multiplyLinked = multiplyLinked
        self.mixedLinks = mixedLinks
    }
}

/// Reads the data facts a diff and a migration need from a database, without PorterDiff knowing
/// how the data is stored. PorterStore's `Database` implements it; names are as stored.
package protocol SchemaDataInspector {
    /// Objects of a class.
    func objectCount(_ className: String) throws -> Int
    /// Set and null values of a stored property.
    func valueCounts(_ className: String, _ property: Property) throws -> ValueCounts
    /// Values of `property` that `ValueConversion` cannot convert to `target` under `rule`.
    func unconvertibleValues(
        _ className: String, _ property: Property, to target: Property, rule: ConversionRule,
        sampleLimit: Int
    ) throws -> SampledCount
    /// Values of a single-value property held by more than one object (a sample shows each with its count).
    func duplicateValues(_ className: String, _ property: Property, sampleLimit: Int) throws -> SampledCount
    /// Orphans, multiply linked objects and `mixed` links of a class, counting links from `sources`.
    func embeddingCounts(_ className: String, sources: [LinkSource], sampleLimit: Int) throws -> EmbeddingCounts
}
