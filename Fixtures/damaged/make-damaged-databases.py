#!/usr/bin/env python3
"""Builds a corpus of damaged Porter databases from a sound one (deterministic: no randomness).

Usage: make-damaged-databases.py SOUND.porter OUTDIR

SOUND.porter is the every-type fixture imported into a new database
(`porter import SOUND.porter Fixtures/realm/every-type.realm --create`). Each damage is applied to
a copy, OUTDIR/NAME.porter, with Python's sqlite3 module (the way a foreign program would write
the file). OUTDIR/manifest.tsv lists NAME<TAB>text that `porter check` must print for it.
"""
import json
import os
import shutil
import sqlite3
import struct
import sys


def blob(hexdigits):
    return bytes.fromhex(hexdigits.replace(" ", ""))


def nested_element(tag, payload):
    return bytes([tag]) + struct.pack(">I", len(payload)) + payload


def date_bytes(seconds, nanos):
    high = struct.pack(">Q", (seconds & 0xFFFFFFFFFFFFFFFF) ^ (1 << 63))
    return high + struct.pack(">I", (nanos & 0xFFFFFFFF) ^ (1 << 31))


def retyped_schema(con):
    """The stored schema with Every.int declared as a string: the int values no longer fit."""
    text = con.execute("SELECT value FROM _porter_meta WHERE key = 'schema'").fetchone()[0]
    schema = json.loads(text)
    for cls in schema["classes"]:
        if cls["name"] == "Every":
            cls["properties"]["int"] = "string"
    con.execute("UPDATE _porter_meta SET value = ? WHERE key = 'schema'", (json.dumps(schema, separators=(",", ":")),))


E = '"class_Every"'
# (name, statements or a function of the connection, text `porter check` prints)
DAMAGES = [
    ("int-pk-text", [f"UPDATE {E} SET _id = 'abc' WHERE _key = 1"], "Every._id"),
    ("bool-seven", [f"UPDATE {E} SET bool = 7 WHERE _key = 1"], "Every.bool"),
    ("int-real", [f"UPDATE {E} SET int = 1.5 WHERE _key = 1"], "Every.int"),
    ("float-text", [f"UPDATE {E} SET float = 'x' WHERE _key = 1"], "Every.float"),
    ("objectid-short", [(f"UPDATE {E} SET objectId = ? WHERE _key = 1", (blob("0102"),))], "Every.objectId"),
    ("uuid-long", [(f"UPDATE {E} SET uuid = ? WHERE _key = 1", (bytes(17),))], "Every.uuid"),
    ("decimal128-short", [(f"UPDATE {E} SET decimal128 = ? WHERE _key = 1", (bytes(15),))], "Every.decimal128"),
    ("date-short", [(f"UPDATE {E} SET date = ? WHERE _key = 1", (bytes(11),))], "Every.date"),
    ("date-nanos", [(f"UPDATE {E} SET date = ? WHERE _key = 1", (date_bytes(0, 2_000_000_000),))], "Every.date"),
    ("string-blob", [(f"UPDATE {E} SET string = ? WHERE _key = 1", (b"A",))], "Every.string"),
    ("string-invalid-utf8", [f"UPDATE {E} SET string = CAST(x'C328' AS TEXT) WHERE _key = 1"], "not valid UTF-8"),
    ("string-over-16mb", [f"UPDATE {E} SET stringOpt = hex(zeroblob(8388609)) WHERE _key = 1"], "Every.stringOpt"),
    ("data-over-16mb", [f"UPDATE {E} SET dataOpt = zeroblob(16777217) WHERE _key = 1"], "Every.dataOpt"),
    ("mixed-unknown-tag", [(f"UPDATE {E} SET mixed = ? WHERE _key = 2", (blob("FF01"),))], "Every.mixed"),
    ("mixed-truncated-objectid", [(f"UPDATE {E} SET mixed = ? WHERE _key = 2", (blob("06 01020304"),))], "objectId"),
    ("mixed-bool-seven", [(f"UPDATE {E} SET mixed = ? WHERE _key = 2", (blob("01 07"),))], "a bool of 7"),
    ("mixed-truncated-link", [(f"UPDATE {E} SET mixed = ? WHERE _key = 2", (blob("09 0000"),))], "Every.mixed"),
    ("mixed-empty-blob", [(f"UPDATE {E} SET mixed = ? WHERE _key = 2", (b"",))], "Every.mixed"),
    ("mixed-nested-tag-outside", [(f"UPDATE {E} SET mixed = ? WHERE _key = 2", (blob("0C 0000000000000001"),))],
     "Every.mixed"),
    ("mixed-nested-cut-short", [(f"UPDATE {E} SET mixed = ? WHERE _key = 2",
                                 (blob("0A 00000002") + nested_element(12, bytes(8)),))], "Every.mixed"),
    ("mixed-nested-bad-objectid", [(f"UPDATE {E} SET mixed = ? WHERE _key = 2",
                                    (blob("0A 00000001") + nested_element(6, blob("010203")),))], "objectId"),
    ("mixed-nested-key-dot", [(f"UPDATE {E} SET mixed = ? WHERE _key = 2",
                               (blob("0B 00000001 00000003") + b"a.b" + nested_element(12, bytes(8)),))], "'.'"),
    ("mixed-list-bad-element", [("UPDATE \"class_Every.mixedList\" SET value = ? WHERE _owner = 1 AND _pos = 12",
                                 (blob("06 01"),))], "Every.mixedList"),
    ("date-list-short",
     [("INSERT INTO \"class_Every.dateList\" (_owner, _pos, value) VALUES (1, 1000, ?)", (bytes(3),))],
     "Every.dateList"),
    ("set-duplicate-int",
     ["INSERT INTO \"class_Every.intSet\" (_owner, value) SELECT _owner, value FROM \"class_Every.intSet\" LIMIT 1"],
     "Every.intSet"),
    ("set-duplicate-string", ["INSERT INTO \"class_Every.stringSet\" (_owner, value) VALUES (1, 'a')"],
     "Every.stringSet"),
    ("set-duplicate-mixed", ["INSERT INTO \"class_Every.mixedSet\" (_owner, value) VALUES (1, 'one')"],
     "Every.mixedSet"),
    ("map-key-dot", ["INSERT INTO \"class_Every.intMap\" (_owner, _key, value) VALUES (1, 'a.b', 1)"], "'.'"),
    ("map-key-dollar", ["INSERT INTO \"class_Every.intMap\" (_owner, _key, value) VALUES (1, '$x', 1)"], "'$'"),
    ("map-key-invalid-utf8",
     ["INSERT INTO \"class_Every.intMap\" (_owner, _key, value) VALUES (1, CAST(x'FF' AS TEXT), 1)"],
     "Every.intMap"),
    ("dangling-link", [f"UPDATE {E} SET target = 999 WHERE _key = 1"], "Every.target"),
    ("dangling-list-link", ["INSERT INTO \"class_Every.targets\" (_owner, _pos, value) VALUES (1, 1000, 999)"],
     "Every.targets"),
    ("dangling-mixed-link", [(f"UPDATE {E} SET mixed = ? WHERE _key = 2", (blob("09 00000000000003E7") + b"Target",))],
     "Every.mixed"),
    ("embedded-orphan", ["INSERT INTO \"class_Emb\" (label) VALUES ('orphan')"],
     "embedded objects must have exactly one parent"),
    ("embedded-two-parents", [f"UPDATE {E} SET emb = (SELECT emb FROM {E} WHERE _key = 1) WHERE _key = 2"],
     "embedded objects must have exactly one parent"),
    ("mixed-links-embedded", [(f"UPDATE {E} SET mixed = ? WHERE _key = 2", (blob("09 0000000000000001") + b"Emb",))],
     "link to embedded objects"),
    ("duplicate-primary-key",
     ["DROP INDEX \"pk:Every\"", f"UPDATE {E} SET _id = (SELECT _id FROM {E} WHERE _key = 1) WHERE _key = 2"],
     "primary key has 1 duplicate"),
    ("primary-key-index-missing", ["DROP INDEX \"pk:Target\""], "Target.name: the unique index"),
    ("null-required", [f"UPDATE {E} SET int = NULL WHERE _key = 1"], "Every.int"),
    ("null-in-required-list", ["INSERT INTO \"class_Every.intList\" (_owner, _pos, value) VALUES (1, 1000, NULL)"],
     "Every.intList"),
    ("list-position-text", ["INSERT INTO \"class_Every.intList\" (_owner, _pos, value) VALUES (1, 'x', 5)"],
     "Every.intList"),
    ("orphan-collection-row", ["INSERT INTO \"class_Every.intList\" (_owner, _pos, value) VALUES (999, 0, 5)"],
     "Every.intList"),
    ("missing-collection-table", ["DROP TABLE \"class_Every.boolSet\""], "Every.boolSet"),
    ("missing-class-table", ["DROP TABLE \"class_NoPk\""], "NoPk"),
    ("missing-column", [f"ALTER TABLE {E} DROP COLUMN stringOpt"], "Every.stringOpt"),
    ("extra-column", [f"ALTER TABLE {E} ADD COLUMN surprise"], "surprise"),
    ("extra-table", ["CREATE TABLE \"class_Extra\" (_key INTEGER PRIMARY KEY)"], "class_Extra"),
    ("meta-unknown-row", ["INSERT INTO _porter_meta (key, value) VALUES ('surprise', 1)"], "surprise"),
    ("meta-no-schema", ["DELETE FROM _porter_meta WHERE key = 'schema'"], "no stored schema"),
    ("schema-json-broken", ["UPDATE _porter_meta SET value = substr(value, 1, 50) WHERE key = 'schema'"],
     "stored schema is damaged"),
    ("schema-type-changed", retyped_schema, "Every.int"),
    ("format-version-newer", ["PRAGMA user_version = 99"], "newer Porter"),
    ("format-version-zero", ["PRAGMA user_version = 0"], "file format version 0"),
    ("application-id-foreign", ["PRAGMA application_id = 1"], "another application"),
    ("trigger", [f"CREATE TRIGGER planted AFTER INSERT ON \"class_NoPk\" BEGIN UPDATE {E} SET int = int + 1; END"],
     "trigger 'planted'"),
    ("view", ["CREATE VIEW planted_view AS SELECT 1"], "view 'planted_view'"),
    ("foreign-index", [f"CREATE INDEX planted_index ON {E} (int)"], "index 'planted_index'"),
]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: make-damaged-databases.py SOUND.porter OUTDIR")
    source, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "manifest.tsv"), "w", encoding="utf-8") as manifest:
        for name, damage, expected in DAMAGES:
            path = os.path.join(out, name + ".porter")
            shutil.copyfile(source, path)
            con = sqlite3.connect(path, isolation_level=None)
            # One file, no WAL left beside it: the corpus files are self-contained.
            con.execute("PRAGMA journal_mode = DELETE")
            if callable(damage):
                damage(con)
            else:
                for step in damage:
                    sql, args = step if isinstance(step, tuple) else (step, ())
                    con.execute(sql, args)
            con.close()
            manifest.write(f"{name}\t{expected}\n")
    print(f"{len(DAMAGES)} damaged databases in {out}")


if __name__ == "__main__":
    main()
