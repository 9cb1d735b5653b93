package dev.porter;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small strict JSON parser for the tests (no dependency): objects become LinkedHashMap (member
 * order kept for reading; equals() ignores it), arrays ArrayList, numbers BigDecimal (exact), plus
 * String, Boolean and null. Anything malformed or trailing is
 * an IllegalArgumentException naming the offset.
 */
final class Json {
    private final String text;
    private int at;

    private Json(String text) {
        this.text = text;
    }

    static Object parse(String text) {
        Json parser = new Json(text);
        Object value = parser.value();
        parser.space();
        if (parser.at != text.length()) throw parser.error("trailing characters");
        return value;
    }

    /** The object {@code text} holds; fails for any other JSON value. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> object(String text) {
        Object value = parse(text);
        if (!(value instanceof Map)) throw new IllegalArgumentException("not a JSON object: " + text);
        return (Map<String, Object>) value;
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException(what + " at offset " + at + " of " + (text.length() > 200 ? text.substring(0, 200) + "…" : text));
    }

    private void space() {
        while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) at++;
    }

    private char peek() {
        if (at >= text.length()) throw error("unexpected end");
        return text.charAt(at);
    }

    private void expect(char c) {
        if (peek() != c) throw error("expected '" + c + "'");
        at++;
    }

    private Object value() {
        space();
        char c = peek();
        switch (c) {
            case '{': return object();
            case '[': return array();
            case '"': return string();
            case 't': return literal("true", Boolean.TRUE);
            case 'f': return literal("false", Boolean.FALSE);
            case 'n': return literal("null", null);
            default:
                if (c == '-' || (c >= '0' && c <= '9')) return number();
                throw error("unexpected '" + c + "'");
        }
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, at)) throw error("expected " + word);
        at += word.length();
        return value;
    }

    private Map<String, Object> object() {
        expect('{');
        Map<String, Object> members = new LinkedHashMap<>();
        space();
        if (peek() == '}') {
            at++;
            return members;
        }
        for (;;) {
            space();
            String name = string();
            space();
            expect(':');
            if (members.containsKey(name)) throw error("duplicate member " + name);
            members.put(name, value());
            space();
            if (peek() == ',') {
                at++;
                continue;
            }
            expect('}');
            return members;
        }
    }

    private List<Object> array() {
        expect('[');
        List<Object> items = new ArrayList<>();
        space();
        if (peek() == ']') {
            at++;
            return items;
        }
        for (;;) {
            items.add(value());
            space();
            if (peek() == ',') {
                at++;
                continue;
            }
            expect(']');
            return items;
        }
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        for (;;) {
            char c = peek();
            at++;
            if (c == '"') return out.toString();
            if (c < 0x20) throw error("a control character in a string");
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = peek();
            at++;
            switch (e) {
                case '"': case '\\': case '/': out.append(e); break;
                case 'b': out.append('\b'); break;
                case 'f': out.append('\f'); break;
                case 'n': out.append('\n'); break;
                case 'r': out.append('\r'); break;
                case 't': out.append('\t'); break;
                case 'u':
                    if (at + 4 > text.length()) throw error("a short \\u escape");
                    try {
                        out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    } catch (NumberFormatException bad) {
                        throw error("a bad \\u escape");
                    }
                    at += 4;
                    break;
                default: throw error("a bad escape \\" + e);
            }
        }
    }

    private BigDecimal number() {
        int start = at;
        if (peek() == '-') at++;
        while (at < text.length() && "0123456789+-.eE".indexOf(text.charAt(at)) >= 0) at++;
        try {
            return new BigDecimal(text.substring(start, at));
        } catch (NumberFormatException bad) {
            at = start;
            throw error("a bad number");
        }
    }
}
