import Foundation
import PorterModel
import PorterQuery

/// What `porter query translate` writes a Realm query as.
public enum QueryTranslationTarget: String, CaseIterable, Sendable {
    /// A SQLite WHERE clause over the tables of `porter export --format sqlite`.
    case sql
    /// A PostgreSQL WHERE clause over the tables of `porter export --format postgres`.
    case postgres
    /// A MongoDB filter document (relaxed Extended JSON) over the documents of the BSON or
    /// Extended JSON export.
    case mongo
}

/// Realm queries (the Realm Query Language `--query` and the typed API's `filter` read) written
/// as a WHERE clause over a relational export's tables or as a MongoDB filter over the document
/// export, selecting the objects Porter's own evaluator (``QueryMatcher``) selects (with the one
/// known difference below).
///
/// What has no exact translation is refused with one line naming the part of the query and why
/// (``no translation: `ratings.@avg >= 3` — …``), never written approximately. The rules it keeps:
/// - Porter compares strings with `==` by canonical equivalence and matches substrings on whole
///   characters; the targets compare bytes. Only ASCII arguments are translated, and not those
///   holding `K`, `;` or `` ` `` (U+212A, U+037E and U+1FEF are canonically those characters).
/// - `[c]` folds case as Unicode does (`ß` is `ss`, `ﬁ` is `fi`, `K` is `k`); it is translated
///   only for ASCII arguments whose letters no other character folds to (`b c d e g m o p q r u
///   v x z`). `[d]` is never translated.
/// - `LIKE`'s `?` is one character (a grapheme cluster) in Porter, one code point in SQL: refused.
///   Known difference: Porter's `BEGINSWITH`, `ENDSWITH`, `CONTAINS` and `LIKE` match on whole
///   characters, so in text where a combining mark follows the matched ASCII (`Re\u{301}x`, text in
///   NFD) Porter does not match where the translation (like realm-core, which compares bytes)
///   does; no target can test grapheme boundaries in one expression.
/// - Null never equals a value, `!=` holds for null, ordering comparisons never hold for null
///   or NaN: every condition is written two-valued (so `NOT` keeps Porter's meaning).
/// - Dates, decimal128, ObjectId, UUID and data values, mixed numbers (a mixed value may hold a
///   decimal128, compared as a double by Porter and stored as text), `@avg`, and `@sum`, `@min`,
///   `@max` of floating-point values (summed and ordered differently) are refused.
public enum QueryTranslator {
    /// The translation of `query` on the objects of `className`.
    /// - Throws: ``PorterError`` (`usage`) naming the part of the query without a translation,
    ///   or the query's own syntax or unknown-property error.
    public static func translate(
        _ query: String, className: String, schema: Schema, to target: QueryTranslationTarget
    ) throws -> String {
        guard let cls = schema[className], !cls.isEmbedded else {
            throw PorterError(.usage, "--class \(className): no such top-level class in the schema")
        }
        // The evaluator's own checks first: unknown properties and paths that cannot go on are
        // named as `--query` names them.
        _ = try QueryMatcher(parsing: query, className: className, schema: schema)
        let predicate = try QueryParser.parseQuery(query)
        switch target {
        case .sql, .postgres:
            var translator = try SQLQueryTranslator(schema: schema, className: className, postgres: target == .postgres)
            return try translator.translate(predicate)
        case .mongo:
            return try MongoQueryTranslator(schema: schema, className: className).translate(predicate)
        }
    }

    /// The SQL that selects, in key order, the keys of the objects of `className` that `query`
    /// keeps, on a Porter database: the SQLite translation over the relational export's tables,
    /// those tables presented over the database's own (``StorageRelationalView``). Nil when the
    /// query has no translation that is exact in every text (substring operators, and what
    /// ``translate(_:className:schema:to:)`` refuses): Porter's evaluator selects those.
    package static func storageSelection(_ query: String, className: String, schema: Schema) -> String? {
        guard let predicate = try? QueryParser.parseQuery(query),
            var translator = try? SQLQueryTranslator(
                schema: schema, className: className, postgres: false, exact: true),
            let clause = try? translator.translate(predicate)
        else { return nil }
        let root = quote(className)
        return StorageRelationalView.withClause(translator.layout)
            + " SELECT \(root).\"_key\" FROM \(root) WHERE \(clause) ORDER BY \(root).\"_key\""
    }

    /// The error for a part of the query without an exact translation.
    static func refuse(_ part: String, _ why: String) -> PorterError {
        PorterError(.usage, "no translation: `\(part)` — \(why)")
    }

    /// The refusal of a condition no target translates: the typed API's own conditions, two key
    /// paths compared, arithmetic.
    static func untranslated(_ predicate: QueryPredicate) -> PorterError {
        switch predicate {
        case .opaque(let path, let condition):
            return refuse("\(path)", "\(condition.description) is evaluated by the typed API only")
        case .comparePaths(let lhs, _, let rhs, _, _):
            return refuse("\(lhs) … \(rhs)", "comparisons of two key paths are not translated")
        case .arithmetic(let lhs, _, let rhs, _):
            return refuse("\(lhs) … \(rhs)", "arithmetic is not translated")
        default: return refuse("\(predicate)", "not translated")
        }
    }

    /// Letters of ASCII no character outside ASCII folds to (see the type's rules).
    static let caseSafeLetters = Set("bcdegmopqruvxzBCDEGMOPQRUVXZ")

    /// Checks that a string argument compares by bytes as Porter compares it; `caseless` for `[c]`.
    static func checkString(_ text: String, caseless: Bool, part: String) throws {
        guard text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value != 0 }) else {
            throw refuse(
                part,
                "the argument is not ASCII: Porter compares strings by canonical equivalence (Unicode normalization) and on whole characters, the target by bytes"
            )
        }
        if let c = text.first(where: { "K;`".contains($0) }) {
            throw refuse(part, "'\(c)' in the argument: Porter also matches the character canonically equivalent to it")
        }
        if caseless, let c = text.first(where: { $0.isLetter && !caseSafeLetters.contains($0) }) {
            throw refuse(
                part,
                "[c] with '\(c)': Porter folds case as Unicode does (other characters fold to '\(c.lowercased())'), the target folds ASCII only"
            )
        }
    }

    /// A string argument and whether `[c]` is on: checked as ``checkString(_:caseless:part:)`` for
    /// equality and the string operators; for ordering (by bytes, as Porter orders) only `[c]`
    /// and U+0000 are refused.
    static func stringArgument(_ value: Value, _ options: StringOptions, ordering: Bool, part: String) throws -> (
        String, caseless: Bool
    ) {
        guard case .string(let s) = value else {
            throw refuse(part, "a string compared with a \(value.kindName) is not translated")
        }
        let caseless = options.contains(.caseInsensitive)
        if ordering {
            guard !caseless else { throw refuse(part, "[c] ordering is not translated") }
            guard !s.unicodeScalars.contains(where: { $0.value == 0 }) else {
                throw refuse(part, "the argument holds U+0000")
            }
        } else {
            try checkString(s, caseless: caseless, part: part)
        }
        return (s, caseless)
    }

    /// An argument compared with a boolean, integer or floating-point property.
    enum ScalarArgument {
        case bool(Bool)
        case int(Int64)
        case double(Double)
    }

    /// The argument of a comparison (`ordering`, else `==`/`!=`) with a value of `property`
    /// (bool, int, float or double), as the targets compare it exactly.
    static func scalarArgument(_ property: Property, _ value: Value, ordering: Bool, equality: Bool, part: String)
        throws -> ScalarArgument
    {
        guard ordering || equality else {
            throw refuse(part, "string operators on \(property.type.rawValue) values")
        }
        switch property.type {
        case .bool:
            guard case .bool(let b) = value, !ordering else {
                throw refuse(part, "a boolean is compared with true or false by == and != only")
            }
            return .bool(b)
        case .int:
            guard let n = integer(value) else {
                throw refuse(part, "an integer is translated against integers (or doubles holding one below 2^53) only")
            }
            return .int(n)
        default:
            guard let d = double(value) else {
                throw refuse(part, "a floating-point value compared with a \(value.kindName)")
            }
            return .double(d)
        }
    }

    /// Whether `op` orders or tests equality, once `[d]` (never translated) is refused.
    static func kind(_ op: QueryOperator, _ options: StringOptions, part: String) throws -> (
        ordering: Bool, equality: Bool
    ) {
        if options.contains(.diacriticInsensitive) {
            throw refuse(part, "[d] (diacritics ignored) has no exact translation")
        }
        return ([.less, .lessOrEqual, .greater, .greaterOrEqual].contains(op), op == .equal || op == .notEqual)
    }

    /// How a comparison reads in messages: `name BEGINSWITH[c] 'r'`.
    static func describe(
        _ path: QueryPath, _ op: QueryOperator, _ value: Value?, _ options: StringOptions,
        _ quantifier: QueryQuantifier = .any
    ) -> String {
        var flags = ""
        if options.contains(.caseInsensitive) { flags += "c" }
        if options.contains(.diacriticInsensitive) { flags += "d" }
        let opText = operatorNames[op] ?? "?"
        let valueText = value.map(literal) ?? "…"
        let prefix = quantifier == .all ? "ALL " : quantifier == .noneOf ? "NONE " : ""
        return "\(prefix)\(path) \(opText)\(flags.isEmpty ? "" : "[\(flags)]") \(valueText)"
    }

    /// The operators as the query language writes them.
    static let operatorNames: [QueryOperator: String] = [
        .equal: "==", .notEqual: "!=", .less: "<", .lessOrEqual: "<=", .greater: ">", .greaterOrEqual: ">=",
        .beginsWith: "BEGINSWITH", .endsWith: "ENDSWITH", .contains: "CONTAINS", .like: "LIKE",
    ]

    /// A value as the query language writes it.
    static func literal(_ value: Value) -> String {
        switch value {
        case .null: return "nil"
        case .string(let s): return "'\(s)'"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .float(let f): return String(f)
        default: return value.kindName
        }
    }

    /// A number argument as an integer Porter and the target compare alike with integers: an
    /// integer, or a double holding an integer below 2^53 (Porter compares through `Double`).
    static func integer(_ value: Value) -> Int64? {
        switch value {
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9_007_199_254_740_992: return Int64(d)
        case .float(let f) where f.rounded() == f && abs(f) < 16_777_216: return Int64(f)
        default: return nil
        }
    }

    /// A number argument as a double compared with floating-point values, when Porter's
    /// conversion to `Double` is exact (integers below 2^53, finite doubles and floats).
    static func double(_ value: Value) -> Double? {
        switch value {
        case .int(let i) where abs(i) < 9_007_199_254_740_992: return Double(i)
        case .double(let d) where d.isFinite: return d
        case .float(let f) where f.isFinite: return Double(f)
        default: return nil
        }
    }

    /// Why a type's values are not translated.
    static func untranslatedType(_ type: PropertyType) -> String {
        switch type {
        case .date:
            return
                "dates are stored as text (SQLite), timestamptz plus nanoseconds (PostgreSQL) or BSON dates in milliseconds: no comparison of them matches Porter's nanosecond dates exactly"
        case .decimal128: return "decimal128 values compare as doubles in Porter and are stored as text or numeric"
        case .objectId, .uuid, .data: return "\(type.rawValue) values are not translated"
        case .mixed:
            return
                "a mixed value is translated only for ==/!= with nil, a string or a boolean (it may hold a decimal128, which Porter compares as a double)"
        default: return "\(type.rawValue) values are not translated for this operator"
        }
    }
}
