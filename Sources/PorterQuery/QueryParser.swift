import Foundation
import PorterModel

/// Parses predicate strings in Realm Query Language, the NSPredicate format most Realm code uses:
///
/// ```swift
/// realm.objects(Dog.self).filter("age > %@ AND name BEGINSWITH[c] %@", 3, "r")
/// realm.objects(Person.self).filter("ANY dogs.name == 'Rex' OR dogs.@count > 2")
/// ```
///
/// Comparisons (`==`/`=`, `!=`/`<>`, `<`, `<=`, `>`, `>=`), `AND`/`&&`, `OR`/`||`, `NOT`/`!`,
/// parentheses, `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE` with `[c]`, `[d]`, `[cd]`, `IN`
/// (`{…}` or an array argument), `BETWEEN {low, high}`, key paths through links and collections,
/// `@count`, `@min`, `@max`, `@sum`, `@avg`, `ANY`/`SOME`/`ALL`/`NONE`, `nil`/`NULL`,
/// `TRUEPREDICATE`/`FALSEPREDICATE`, `%@` (a value) and `%K` (a key path) arguments; realm-core's
/// `SUBQUERY(collection, $x, predicate).@count`, `@links` (`@links.@count`,
/// `@links.Class.property`), `@type`, `@size` of strings and data, dictionary `@keys`/`@values` and
/// subscripts (`dict['key']`, `list[0]`).
package struct QueryParser {
    private let text: [Character]
    private var position = 0
    private var arguments: [Any?]
    private var nextArgument = 0
    /// Messages quote the predicate (the typed API's); the command line's say only where.
    private var repeatsText = true
    /// The variables of the SUBQUERYs being parsed, innermost last: paths inside start with it.
    private var variables: [String] = []

    /// Parses `format` with its `%@`/`%K` arguments.
    /// - Throws: ``PorterError/Code/parseError`` naming the position (1-based) and what was expected.
    package static func parse(_ format: String, _ arguments: [Any?] = []) throws -> QueryPredicate {
        var parser = QueryParser(text: Array(format), arguments: arguments)
        return try parser.whole()
    }

    /// Parses a query given on the command line (no arguments): errors say what was expected and
    /// where, without repeating the query (`expected a value at 7 near '> 3'`).
    /// - Throws: ``PorterError/Code/parseError``.
    package static func parseQuery(_ text: String) throws -> QueryPredicate {
        var parser = QueryParser(text: Array(text), arguments: [])
        parser.repeatsText = false
        return try parser.whole()
    }

    private mutating func whole() throws -> QueryPredicate {
        let predicate = try orExpression()
        skipSpace()
        guard position == text.count else {
            for word in ["SORT", "DISTINCT", "LIMIT"] where startsWord(word) {
                throw error(
                    "\(word)(…) in the query is not supported (use --sort and --limit, or sorted(byKeyPath:) and distinct(by:))"
                )
            }
            throw error("expected AND, OR or the end of the predicate")
        }
        guard nextArgument == arguments.count else {
            throw PorterError(
                .parseError,
                "predicate '\(String(text))' uses \(nextArgument) argument(s) but \(arguments.count) were given")
        }
        return predicate
    }

    private init(text: [Character], arguments: [Any?]) {
        self.text = text
        self.arguments = arguments
    }

    private func error(_ expected: String) -> PorterError {
        let shown = String(text)
        let near =
            position < text.count
            ? " near '\(String(text[position..<Swift.min(text.count, position + 12)]))'" : " at the end"
        guard repeatsText else { return PorterError(.parseError, "\(expected) at \(position + 1)\(near)") }
        return PorterError(.parseError, "invalid predicate '\(shown)': \(expected) at position \(position + 1)\(near)")
    }

    // MARK: - Grammar

    private mutating func orExpression() throws -> QueryPredicate {
        var result = try andExpression()
        while keyword("OR") || symbol("||") { result = .or(result, try andExpression()) }
        return result
    }

    private mutating func andExpression() throws -> QueryPredicate {
        var result = try notExpression()
        while keyword("AND") || symbol("&&") { result = .and(result, try notExpression()) }
        return result
    }

    private mutating func notExpression() throws -> QueryPredicate {
        if keyword("NOT") { return .not(try notExpression()) }
        skipSpace()
        if position + 1 < text.count, text[position] == "!", text[position + 1] != "=" {
            position += 1
            return .not(try notExpression())
        }
        return try primary()
    }

    private mutating func primary() throws -> QueryPredicate {
        let beforeParenthesis = self
        if symbol("(") {
            do {
                let inner = try orExpression()
                guard symbol(")") else { throw error("expected ')'") }
                return inner
            } catch let grouped {
                // `(age + 1) * 2 > 7`: parentheses of arithmetic, unless that reading fails earlier.
                let afterGrouped = self
                self = beforeParenthesis
                do { return try comparison() } catch {
                    if position > afterGrouped.position { throw error }
                    self = afterGrouped
                    throw grouped
                }
            }
        }
        if keyword("TRUEPREDICATE") { return .constant(true) }
        if keyword("FALSEPREDICATE") { return .constant(false) }
        let start = position
        if keyword("SUBQUERY") {
            if symbol("(") { return try subquery() }
            position = start
        }
        return try comparison()
    }

    /// `SUBQUERY(collection, $x, predicate).@count op value`, after `SUBQUERY(`.
    private mutating func subquery() throws -> QueryPredicate {
        let collection = try keyPath()
        guard symbol(",") else { throw error("expected ',' after the SUBQUERY's collection") }
        skipSpace()
        let nameStart = position
        if position < text.count, text[position] == "$" { position += 1 }
        while position < text.count, text[position].isLetter || text[position].isNumber || text[position] == "_" {
            position += 1
        }
        let variable = String(text[nameStart..<position])
        guard variable.count > 1, variable.first == "$" else {
            position = nameStart
            throw error("expected the SUBQUERY's variable ($x)")
        }
        guard symbol(",") else { throw error("expected ',' after the SUBQUERY's variable") }
        variables.append(variable)
        let inner = try orExpression()
        variables.removeLast()
        guard symbol(")") else { throw error("expected ')' closing SUBQUERY") }
        guard keyword(".@count") || keyword(".@size") else { throw error("expected .@count after SUBQUERY(…)") }
        let operatorStart = position
        let (parsed, options) = try comparisonOperator()
        guard case .op(let op) = parsed, options.isEmpty,
            [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual].contains(op)
        else {
            position = operatorStart
            skipSpace()
            throw error("SUBQUERY(…).@count compares with ==, !=, <, <=, > or >=")
        }
        return .subquery(collection, variable: variable, inner, op, try operand())
    }

    private mutating func comparison() throws -> QueryPredicate {
        var quantifier: QueryQuantifier?
        if keyword("ANY") || keyword("SOME") {
            quantifier = .any
        } else if keyword("ALL") {
            quantifier = .all
        } else if keyword("NONE") {
            quantifier = .noneOf
        }
        skipSpace()
        if position < text.count, text[position] == "(" { return try arithmeticComparison(quantifier ?? .any) }
        // `value IN collection` (`'rex' IN names`) reads as "any element equals value".
        if quantifier == nil, startsValue() {
            let valueStart = position
            let value = try operand()
            if startsArithmetic() {
                position = valueStart
                return try arithmeticComparison(.any)
            }
            if keyword("IN") { return .compare(try keyPath(), .equal, value, []) }
            // `3 < age` is `age > 3`.
            let operatorStart = position
            let (parsed, options) = try comparisonOperator()
            guard case .op(let op) = parsed, let flipped = Self.flipped(op) else {
                position = operatorStart
                skipSpace()
                throw error("a value on the left compares with ==, !=, <, <=, >, >= or IN")
            }
            return .compare(try keyPath(), flipped, value, options)
        }
        let pathStart = position
        let path = try keyPath()
        let q = quantifier ?? .any
        if startsArithmetic() {
            position = pathStart
            return try arithmeticComparison(q)
        }
        let (op, options) = try comparisonOperator()
        switch op {
        case .in:
            return .in(path, try list())
        case .between:
            let bounds = try list()
            guard bounds.count == 2 else { throw error("BETWEEN needs exactly two values, {low, high}") }
            return .between(path, bounds[0], bounds[1])
        case .op(let queryOperator):
            skipSpace()
            let rightStart = position
            let right: QueryExpression = startsKeyPath() ? .path(try keyPath()) : .value(try operand())
            if startsArithmetic() {
                position = rightStart
                guard options.isEmpty, Self.flipped(queryOperator) != nil else {
                    throw error("arithmetic compares with ==, !=, <, <=, >, >=")
                }
                return .arithmetic(.path(path), queryOperator, try expression(), q)
            }
            if case .path(let rightPath) = right { return .comparePaths(path, queryOperator, rightPath, options, q) }
            guard case .value(let value) = right else { throw error("expected a value") }
            return .compare(path, queryOperator, value, options, q)
        }
    }

    /// A comparison with arithmetic on either side (`age * 2 + 1 > owner.age`), from its start.
    private mutating func arithmeticComparison(_ quantifier: QueryQuantifier) throws -> QueryPredicate {
        let left = try expression()
        let operatorStart = position
        let (parsed, options) = try comparisonOperator()
        guard case .op(let op) = parsed, options.isEmpty, Self.flipped(op) != nil else {
            position = operatorStart
            skipSpace()
            throw error("arithmetic compares with ==, !=, <, <=, >, >=")
        }
        return .arithmetic(left, op, try expression(), quantifier)
    }

    /// Terms joined by `+` and `-`.
    private mutating func expression() throws -> QueryExpression {
        var result = try term()
        while true {
            if symbol("+") {
                result = .operation(result, .plus, try term())
            } else if symbol("-") {
                result = .operation(result, .minus, try term())
            } else {
                return result
            }
        }
    }

    /// Factors joined by `*` and `/` (before `+` and `-`).
    private mutating func term() throws -> QueryExpression {
        var result = try factor()
        while true {
            if symbol("*") {
                result = .operation(result, .times, try factor())
            } else if symbol("/") {
                result = .operation(result, .divide, try factor())
            } else {
                return result
            }
        }
    }

    /// A key path, a value or a parenthesized expression.
    private mutating func factor() throws -> QueryExpression {
        if symbol("(") {
            let inner = try expression()
            guard symbol(")") else { throw error("expected ')'") }
            return inner
        }
        return startsKeyPath() ? .path(try keyPath()) : .value(try operand())
    }

    /// Whether an arithmetic operator comes next.
    private mutating func startsArithmetic() -> Bool {
        skipSpace()
        return position < text.count && "+-*/".contains(text[position])
    }

    /// The operator with its sides swapped (`3 < age` is `age > 3`); nil for string operators.
    private static func flipped(_ op: QueryOperator) -> QueryOperator? {
        switch op {
        case .equal, .notEqual: return op
        case .less: return .greater
        case .lessOrEqual: return .greaterOrEqual
        case .greater: return .less
        case .greaterOrEqual: return .lessOrEqual
        case .beginsWith, .endsWith, .contains, .like: return nil
        }
    }

    /// Whether a key path (not a value: a literal word, `oid(…)` or `%@`) starts here.
    private mutating func startsKeyPath() -> Bool {
        skipSpace()
        guard position < text.count else { return false }
        let c = text[position]
        if c == "%" { return position + 1 < text.count && text[position + 1] == "K" }
        guard c.isLetter || c == "_" || c == "@" || c == "$" else { return false }
        var end = position
        while end < text.count, text[end].isLetter || text[end].isNumber || text[end] == "_" { end += 1 }
        let word = String(text[position..<end])
        let literals: Set<String> = ["nil", "NULL", "null", "NIL", "true", "TRUE", "YES", "false", "FALSE", "NO"]
        if literals.contains(word) { return false }
        if let literal = QueryLiterals.kind(of: text, at: position), literal != .date { return false }
        // realm-core's `$0` arguments and `O12`/`obj(…)` links are values (refused by ``operand()``).
        if c == "$", position + 1 < text.count, text[position + 1].isNumber { return false }
        if word.count > 1, word.first == "O", word.dropFirst().allSatisfy(\.isNumber) { return false }
        return !(["oid", "obj"].contains(word.lowercased()) && end < text.count && text[end] == "(")
    }

    private enum ParsedOperator { case op(QueryOperator), `in`, between }

    private mutating func comparisonOperator() throws -> (ParsedOperator, StringOptions) {
        skipSpace()
        let symbols: [(String, QueryOperator)] = [
            ("==", .equal), ("!=", .notEqual), ("<>", .notEqual), ("<=", .lessOrEqual),
            ("=<", .lessOrEqual), (">=", .greaterOrEqual), ("=>", .greaterOrEqual),
            ("=", .equal), ("<", .less), (">", .greater),
        ]
        var parsed: ParsedOperator?
        for (spelling, op) in symbols where symbol(spelling) {
            parsed = .op(op)
            break
        }
        if parsed == nil {
            let words: [(String, ParsedOperator)] = [
                ("BEGINSWITH", .op(.beginsWith)), ("ENDSWITH", .op(.endsWith)), ("CONTAINS", .op(.contains)),
                ("LIKE", .op(.like)), ("IN", .in), ("BETWEEN", .between),
            ]
            for (word, op) in words where keyword(word) {
                parsed = op
                break
            }
        }
        guard let parsed else {
            if startsWord("TEXT") { throw error("TEXT (full-text search) is not supported") }
            if startsWord("GEOWITHIN") {
                throw error("GEOWITHIN in a query string is not supported (the typed API's geoWithin is)")
            }
            throw error(
                "expected a comparison operator (==, !=, <, <=, >, >=, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, IN, BETWEEN)"
            )
        }
        var options: StringOptions = []
        if position < text.count, text[position] == "[" {
            position += 1
            while position < text.count, text[position] != "]" {
                switch text[position].lowercased() {
                case "c": options.insert(.caseInsensitive)
                case "d": options.insert(.diacriticInsensitive)
                default: throw error("expected c or d in the comparison options")
                }
                position += 1
            }
            guard position < text.count else { throw error("expected ']'") }
            position += 1
        }
        return (parsed, options)
    }

    /// `name`, `owner.name`, `dogs.@count`, `dogs.@avg.age`, `dogs.age.@avg`, `tags['a']`,
    /// `@links.Person.dogs`, `value.@type`, `map.@keys`, `$x.name` in a SUBQUERY, or `%K`.
    private mutating func keyPath() throws -> QueryPath {
        skipSpace()
        let start = position + 1
        var path = QueryPath([], position: start)
        if symbol("%K") {
            guard let name = takeArgument() as? String else { throw error("%K needs a String key path argument") }
            var atVariable = false
            for (i, part) in name.split(separator: ".", omittingEmptySubsequences: false).map(String.init).enumerated()
            {
                guard !part.isEmpty else { throw error("empty property name in key path '\(name)'") }
                if try addPathPart(part, to: &path, first: i == 0) { atVariable = true }
            }
            guard !path.components.isEmpty || atVariable else { throw error("a key path needs a property name") }
            return path
        }
        var first = true
        var atVariable = false
        repeat {
            let partStart = position
            while position < text.count,
                text[position].isLetter || text[position].isNumber || "_@$".contains(text[position])
            { position += 1 }
            let part = String(text[partStart..<position])
            guard !part.isEmpty else {
                throw error(first ? "expected a property name" : "expected a property name after '.'")
            }
            let partEnd = position
            position = partStart
            if try addPathPart(part, to: &path, first: first) { atVariable = true }
            position = partEnd
            first = false
            while position < text.count, text[position] == "[" { try subscriptPart(&path) }
        } while position < text.count && text[position] == "." && advance()
        if let variable = variables.last, !atVariable {
            position = start - 1
            throw error("a key path inside SUBQUERY starts with its variable \(variable)")
        }
        guard !path.components.isEmpty || atVariable else {
            position = start - 1
            throw error("a key path needs a property name")
        }
        return path
    }

    /// Consumes one character (a `.` between parts of a key path).
    private mutating func advance() -> Bool {
        position += 1
        return true
    }

    /// Adds one dot-separated part of a key path (`position` at its start, for messages); true when
    /// the part is the SUBQUERY's variable (the path starts at the collection's element).
    private mutating func addPathPart(_ part: String, to path: inout QueryPath, first: Bool) throws -> Bool {
        if path.operation == .values, !part.hasPrefix("@"), !part.hasPrefix("$"), path.aggregate == nil,
            !path.components.isEmpty
        {
            // `pets.@values.age`: on through the dictionary's values (realm-core's).
            path.valuesSteps.insert(path.components.count - 1)
            path.operation = nil
        }
        if let operation = path.operation {
            throw error("'@\(operation.rawValue)' ends a key path")
        }
        if part.hasPrefix("$") {
            guard first, let variable = variables.last else {
                throw error("unexpected '\(part)': a variable ($x) starts a key path inside SUBQUERY only")
            }
            guard part == variable else { throw error("unknown variable '\(part)' (this SUBQUERY's is \(variable))") }
            return true
        }
        guard part.hasPrefix("@") else {
            path.components.append(part)
            return false
        }
        let name = part.dropFirst().lowercased()
        switch name {
        case "links":
            guard path.aggregate == nil else { throw error("'@links' cannot follow an aggregate") }
            path.components.append(QueryPath.links)
        case "type", "keys", "values":
            // `$x.@type` in a SUBQUERY over values: the element's type.
            guard path.aggregate == nil, !path.components.isEmpty || !first else {
                throw error("'\(part)' needs a property before it")
            }
            path.operation = QueryPathOperation(rawValue: name)
        default:
            guard let found = QueryAggregate(rawValue: name == "size" ? "count" : name), path.aggregate == nil else {
                throw error(
                    "unknown or repeated collection operator '\(part)' (use @count, @size, @min, @max, @sum, @avg, @type, @keys, @values or @links)"
                )
            }
            path.aggregate = found
        }
        return false
    }

    /// `['key']`, `["key"]`, `[0]`, `[FIRST]`, `[LAST]`, `[*]` or `[SIZE]` (realm-core's `.@size`,
    /// which ends the path) after a property name or another subscript.
    private mutating func subscriptPart(_ path: inout QueryPath) throws {
        guard !path.components.isEmpty, path.components.last != QueryPath.links, path.aggregate == nil else {
            throw error("a subscript follows a property name")
        }
        position += 1
        skipSpace()
        let subscriptValue: QuerySubscript
        if symbol("*") {
            subscriptValue = .all
        } else if keyword("FIRST", caseSensitive: true) || keyword("first", caseSensitive: true) {
            subscriptValue = .first
        } else if keyword("LAST", caseSensitive: true) || keyword("last", caseSensitive: true) {
            subscriptValue = .last
        } else if keyword("SIZE", caseSensitive: true) || keyword("size", caseSensitive: true) {
            guard symbol("]") else { throw error("expected ']'") }
            path.aggregate = .count
            return
        } else if case .literal(let value) = try operand() {
            switch value {
            case .string(let key): subscriptValue = .key(key)
            case .int(let index) where index >= 0: subscriptValue = .index(Int(index))
            default: throw error("a subscript is a quoted key, an index (0 or more), FIRST, LAST, SIZE or *")
            }
        } else {
            throw error("a subscript is a quoted key, an index (0 or more), FIRST, LAST, SIZE or *")
        }
        guard symbol("]") else { throw error("expected ']'") }
        path.subscripts[path.components.count - 1, default: []].append(subscriptValue)
    }

    /// `{a, b}` or an array argument.
    private mutating func list() throws -> [QueryArgument] {
        if symbol("{") {
            var items: [QueryArgument] = []
            if symbol("}") { return items }
            repeat { items.append(try operand()) } while symbol(",")
            guard symbol("}") else { throw error("expected '}'") }
            return items
        }
        if symbol("%@") {
            guard let array = takeArgument() as? [Any] else {
                throw error("IN and BETWEEN need an array argument for %@")
            }
            return array.map { .given($0) }
        }
        throw error("expected '{' or %@")
    }

    /// A literal or a `%@` argument.
    private mutating func operand() throws -> QueryArgument {
        skipSpace()
        if symbol("%@") { return .given(takeArgument()) }
        guard position < text.count else { throw error("expected a value") }
        let c = text[position]
        if c == "'" || c == "\"" {
            position += 1
            var out = ""
            while position < text.count, text[position] != c {
                if text[position] == "\\", position + 1 < text.count { position += 1 }
                out.append(text[position])
                position += 1
            }
            guard position < text.count else { throw error("unterminated string") }
            position += 1
            return .literal(.string(out))
        }
        if let literal = try realmCoreLiteral() { return .literal(literal) }
        if c.isNumber || c == "-" || c == "+" || c == "." {
            let start = position
            position += 1
            while position < text.count,
                text[position].isNumber || ".eE".contains(text[position])
                    || ((text[position] == "-" || text[position] == "+") && "eE".contains(text[position - 1]))
            { position += 1 }
            let literal = String(text[start..<position])
            if let int = Int64(literal) { return .literal(.int(int)) }
            if let double = Double(literal) { return .literal(.double(double)) }
            position = start
            throw error("invalid number '\(literal)'")
        }
        for (word, value) in [
            ("nil", Value.null), ("NULL", .null), ("null", .null), ("NIL", .null),
            ("true", .bool(true)), ("TRUE", .bool(true)), ("YES", .bool(true)),
            ("false", .bool(false)), ("FALSE", .bool(false)), ("NO", .bool(false)),
        ] where keyword(word, caseSensitive: true) {
            return .literal(value)
        }
        if keyword("oid"), symbol("(") {
            let start = position
            while position < text.count, text[position] != ")" { position += 1 }
            let hex = String(text[start..<position]).trimmingCharacters(in: .whitespaces)
            guard symbol(")"), let id = try? ObjectId(string: hex) else {
                throw error("expected oid(24 hexadecimal digits)")
            }
            return .literal(.objectId(id))
        }
        if c == "$", position + 1 < text.count, text[position + 1].isNumber {
            throw error("$0 arguments are not supported (use %@)")
        }
        if startsWord("obj") || (c == "O" && position + 1 < text.count && text[position + 1].isNumber) {
            throw error("links as obj(…) or O<key> are not supported (compare a key path: owner.name == 'Ada')")
        }
        throw error("expected a value (a number, a quoted string, true, false, nil or %@)")
    }

    /// realm-core's literal forms (``QueryLiterals``) when one starts here: consumed and returned.
    private mutating func realmCoreLiteral() throws -> Value? {
        guard let kind = QueryLiterals.kind(of: text, at: position) else { return nil }
        let start = position
        do {
            let (value, end) = try QueryLiterals.read(kind, text, at: position)
            position = end
            return value
        } catch let message as QueryLiterals.Invalid {
            position = start
            throw error(message.text)
        }
    }

    /// Whether `word` (any case) starts here, as a word or before `(`, without consuming it.
    private mutating func startsWord(_ word: String) -> Bool {
        let start = position
        defer { position = start }
        return keyword(word)
    }

    /// Whether a value (not a key path) starts here.
    private mutating func startsValue() -> Bool {
        skipSpace()
        guard position < text.count else { return false }
        let c = text[position]
        if c == "'" || c == "\"" || c.isNumber || c == "-" { return true }
        return position + 1 < text.count && c == "%" && text[position + 1] == "@"
    }

    private mutating func takeArgument() -> Any? {
        defer { nextArgument += 1 }
        return nextArgument < arguments.count ? arguments[nextArgument] : nil
    }

    // MARK: - Lexing

    private mutating func skipSpace() {
        while position < text.count, text[position].isWhitespace { position += 1 }
    }

    /// Consumes `s` when it comes next.
    private mutating func symbol(_ s: String) -> Bool {
        skipSpace()
        let chars = Array(s)
        guard position + chars.count <= text.count, Array(text[position..<position + chars.count]) == chars else {
            return false
        }
        position += chars.count
        return true
    }

    /// Consumes a whole word (any case unless `caseSensitive`) when it comes next.
    private mutating func keyword(_ word: String, caseSensitive: Bool = false) -> Bool {
        skipSpace()
        let chars = Array(word)
        guard position + chars.count <= text.count else { return false }
        let candidate = String(text[position..<position + chars.count])
        guard caseSensitive ? candidate == word : candidate.uppercased() == word.uppercased() else { return false }
        let end = position + chars.count
        if end < text.count, text[end].isLetter || text[end].isNumber || text[end] == "_" { return false }
        position = end
        return true
    }
}
