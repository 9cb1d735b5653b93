#!/usr/bin/env python3
"""Compares a PostgreSQL database loaded from `porter export --format postgres` (or `--to`) with
the `--format sqlite` export of the same file, table by table, row by row, cell by cell: the
same tables, the same row counts, and every value equal once each side is read by its own type
(PostgreSQL's values through `COPY … TO STDOUT` with psql, SQLite's with Python's sqlite3).

    compare_export.py SQLITE_FILE SOCKET_FOLDER DATABASE

Prints one line per table and `OK N tables, M rows, K cells` or the first differences; exit 1
when anything differs. Rows are compared in load order (a freshly loaded table is read back in
the order of its COPY; SQLite's in rowid order, the order the export inserted them).
"""
import base64, json, sqlite3, struct, subprocess, sys, uuid
from decimal import Decimal

sqlite_path, socket, database = sys.argv[1:4]
TZ = {"PGTZ": "UTC", "PGOPTIONS": "-c TimeZone=UTC -c extra_float_digits=1"}


def psql(sql):
    import os
    env = dict(os.environ, **TZ)
    out = subprocess.run(
        ["psql", "-X", "-q", "-h", socket, "-U", "porter", "-d", database, "-v", "ON_ERROR_STOP=1", "-At", "-c", sql],
        capture_output=True, env=env)
    if out.returncode != 0:
        sys.exit("psql failed: " + out.stderr.decode())
    return out.stdout


def copy_rows(table):
    """The rows of a table through COPY text: lists of str (None for NULL), unescaped."""
    data = psql('COPY (SELECT * FROM "%s") TO STDOUT' % table.replace('"', '""'))
    rows = []
    for line in data.split(b"\n")[:-1]:
        fields = []
        for raw in line.split(b"\t"):
            if raw == b"\\N":
                fields.append(None)
                continue
            out, i = bytearray(), 0
            while i < len(raw):
                c = raw[i]
                if c == 0x5C and i + 1 < len(raw):
                    n = raw[i + 1]
                    i += 2
                    if n in b"01234567":
                        j = i - 1
                        while j < len(raw) and j < i + 2 and raw[j] in b"01234567":
                            j += 1
                        out.append(int(raw[i - 1:j], 8))
                        i = j
                    else:
                        out.append({0x74: 9, 0x6E: 10, 0x72: 13, 0x62: 8, 0x66: 12, 0x76: 11}.get(n, n))
                else:
                    out.append(c)
                    i += 1
            fields.append(out.decode("utf-8"))
        rows.append(fields)
    return rows


def days_from_civil(y, m, d):
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def instant(y, mo, d, h, mi, s, frac):
    """(seconds, nanoseconds 0..999999999) of a UTC civil time."""
    ns = int((frac + "000000000")[:9]) if frac else 0
    return (days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s, ns)


def iso_instant(text):
    """Porter's ISO 8601 (`YYYY-MM-DDTHH:MM:SS[.f]Z`, years ±YYYYYY outside 0–9999)."""
    sign = 1
    if text[0] in "+-":
        sign = -1 if text[0] == "-" else 1
        text = text[1:]
    date, time = text.rstrip("Z").split("T")
    y, mo, d = date.split("-")
    hms, _, frac = time.partition(".")
    h, mi, s = hms.split(":")
    return instant(sign * int(y), int(mo), int(d), int(h), int(mi), int(s), frac)


def pg_instant(text, nanos):
    """PostgreSQL's timestamptz text in UTC (`YYYY-MM-DD HH:MM:SS[.ffffff]+00[ BC]`) plus the
    nanoseconds below the microsecond."""
    bc = text.endswith(" BC")
    if bc:
        text = text[:-3]
    date, time = text.split(" ")
    y, mo, d = date.split("-")
    time = time[: time.rindex("+")]
    hms, _, frac = time.partition(".")
    h, mi, s = hms.split(":")
    year = 1 - int(y) if bc else int(y)
    sec, ns = instant(year, int(mo), int(d), int(h), int(mi), int(s), (frac + "000000")[:6])
    return (sec, ns + int(nanos))


def f32(x):
    return struct.unpack("<I", struct.pack("<f", float(x)))[0] if not (isinstance(x, str) and x == "NaN") else "nan"


def f64(x):
    v = float(x)
    return "nan" if v != v else struct.unpack("<Q", struct.pack("<d", v))[0]


def dec(x):
    return Decimal(x).as_tuple()


def ejson_instant(v):
    inner = v["$date"]
    if isinstance(inner, dict):
        ms = int(inner["$numberLong"])
        return (ms // 1000, (ms % 1000) * 1_000_000)
    return iso_instant(inner)


def mixed_equal(pg_value, pg_type, lite_value, lite_type):
    if pg_type != lite_type:
        return False
    if pg_type is None:
        return pg_value is None and lite_value is None
    j = json.loads(pg_value)
    t = pg_type
    if t == "bool":
        return j == bool(lite_value)
    if t == "int":
        return int(j["$numberLong"]) == lite_value
    if t == "double":
        return f64(j["$numberDouble"].replace("inf", "Infinity")) == f64(lite_value)
    if t == "float":
        return f32(j["$numberDouble"]) == f32(lite_value)
    if t == "string":
        return j == lite_value
    if t == "data":
        return base64.b64decode(j["$binary"]["base64"]) == lite_value and j["$binary"]["subType"] == "00"
    if t == "date":
        return ejson_instant(j) == iso_instant(lite_value)
    if t == "decimal128":
        return dec(j["$numberDecimal"]) == dec(lite_value)
    if t == "objectId":
        return j["$oid"] == lite_value
    if t == "uuid":
        return str(uuid.UUID(bytes=base64.b64decode(j["$binary"]["base64"]))) == lite_value
    if t == "link":
        cls, _, key = lite_value.partition(":")
        k = j["$id"]
        text = k if isinstance(k, str) else k.get("$numberLong") or k.get("$oid") \
            or (str(uuid.UUID(bytes=base64.b64decode(k["$binary"]["base64"]))) if "$binary" in k else None)
        return j["$ref"] == cls and text == key
    if t in ("list", "dictionary"):
        return j == json.loads(lite_value)
    return False


def cell_equal(pg_type, pg, lite):
    if pg is None or lite is None:
        return pg is None and lite is None
    if pg_type == "boolean":
        return (pg == "t") == bool(lite) and lite in (0, 1)
    if pg_type in ("bigint", "integer", "smallint"):
        return int(pg) == lite
    if pg_type == "real":
        return f32(pg) == f32(lite)
    if pg_type == "double precision":
        return f64(pg) == f64(lite)
    if pg_type == "numeric":
        return dec(pg) == dec(lite)
    if pg_type == "uuid":
        return pg == lite.lower()
    if pg_type == "bytea":
        data = bytes.fromhex(pg[2:])
        return data == (lite.encode("utf-8") if isinstance(lite, str) else lite)
    if pg == lite:
        return True
    try:  # a decimal128 column PostgreSQL holds as text (plain notation where exact)
        return dec(pg) == dec(lite)
    except Exception:
        return False


lite = sqlite3.connect(sqlite_path)
lite_tables = sorted(r[0] for r in lite.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
pg_tables = sorted(psql("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()").decode().splitlines())
problems = []
if lite_tables != pg_tables:
    problems.append("tables differ: sqlite %s, postgres %s" % (lite_tables, pg_tables))
total_rows = total_cells = 0
for table in [t for t in lite_tables if t in pg_tables]:
    types = [line.split("|", 1) for line in psql(
        "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() "
        "AND table_name = '%s' ORDER BY ordinal_position" % table.replace("'", "''")).decode().splitlines()]
    pg_columns = [c for c, _ in types]
    pg_type = dict(types)
    lite_columns = [r[1] for r in lite.execute('PRAGMA table_info("%s")' % table.replace('"', '""'))]
    # Date columns carry `<name>_ns` (smallint) in PostgreSQL; mixed ones `<name>_type` on both sides.
    dates = {c[:-3] for c in pg_columns if c.endswith("_ns") and pg_type[c] == "smallint" and c[:-3] in pg_type}
    mixed = {c[:-5] for c in lite_columns if c.endswith("_type") and c[:-5] in lite_columns}
    expected = [c for c in pg_columns if not (c.endswith("_ns") and c[:-3] in dates)]
    if expected != lite_columns:
        problems.append("%s: columns differ: sqlite %s, postgres %s" % (table, lite_columns, pg_columns))
        continue
    lite_rows = lite.execute('SELECT * FROM "%s" ORDER BY rowid' % table.replace('"', '""')).fetchall() \
        if table not in ("_porter_null_entries",) else \
        lite.execute('SELECT * FROM "%s"' % table).fetchall()
    pg_rows = copy_rows(table)
    if table == "_porter_null_entries":
        lite_rows = sorted(lite_rows, key=repr)
        pg_rows = sorted(pg_rows, key=repr)
    print("%s: %d rows (sqlite %d)" % (table, len(pg_rows), len(lite_rows)))
    if len(pg_rows) != len(lite_rows):
        problems.append("%s: %d rows in postgres, %d in sqlite" % (table, len(pg_rows), len(lite_rows)))
        continue
    total_rows += len(pg_rows)
    for n, (pg_row, lite_row) in enumerate(zip(pg_rows, lite_rows)):
        pg_cells = dict(zip(pg_columns, pg_row))
        for i, column in enumerate(lite_columns):
            if column.endswith("_type") and column[:-5] in mixed:
                continue
            value = lite_row[i]
            if column in mixed:
                ok = mixed_equal(pg_cells[column], pg_cells[column + "_type"], value,
                                 lite_row[lite_columns.index(column + "_type")])
            elif column in dates:
                ok = (pg_cells[column] is None and value is None) or (
                    pg_cells[column] is not None and value is not None
                    and pg_instant(pg_cells[column], pg_cells[column + "_ns"]) == iso_instant(value))
            elif table == "_porter_null_entries" and column == "owner":
                ok = pg_cells[column] == str(value)
            else:
                ok = cell_equal(pg_type[column], pg_cells[column], value)
            total_cells += 1
            if not ok:
                problems.append("%s row %d column %s: postgres %r (%s), sqlite %r" % (
                    table, n + 1, column, pg_cells[column], pg_type[column], value))
if problems:
    print("\n".join(problems[:20]))
    sys.exit(1)
print("OK %d tables, %d rows, %d cells" % (len(pg_tables), total_rows, total_cells))
