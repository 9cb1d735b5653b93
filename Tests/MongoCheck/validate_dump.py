#!/usr/bin/env python3
"""Validates a mongodump folder that `porter export --validators` (or --app-config) wrote.

For every `<database>/<collection>.metadata.json` (or a flat `<collection>.metadata.json`): reads
it with pymongo's Extended JSON reader, takes `options.validator.$jsonSchema`, reads the
collection's `.bson` file with pymongo's BSON decoder, and validates every document with the
`jsonschema` package (Draft 4 keywords: required, properties, items, additionalProperties,
uniqueItems) extended by MongoDB's `bsonType`, which it evaluates on the decoded BSON types. The
check of the check: a copy of each collection's first document without its first required field
must fail. Prints `database.collection documents` per collection; exit 1 on the first invalid
document, naming it.

usage: validate_dump.py DUMP_FOLDER
"""
import datetime
import os
import sys
import uuid

import bson
import jsonschema
from bson import json_util
from bson.binary import Binary
from bson.decimal128 import Decimal128
from bson.int64 import Int64
from bson.objectid import ObjectId

CHECKS = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "bool": lambda v: isinstance(v, bool),
    "long": lambda v: isinstance(v, Int64),
    "int": lambda v: isinstance(v, int) and not isinstance(v, (bool, Int64)),
    "double": lambda v: isinstance(v, float),
    "decimal": lambda v: isinstance(v, Decimal128),
    "objectId": lambda v: isinstance(v, ObjectId),
    "date": lambda v: isinstance(v, (datetime.datetime, bson.datetime_ms.DatetimeMS)),
    "binData": lambda v: isinstance(v, (bytes, Binary, uuid.UUID)),
    "null": lambda v: v is None,
}


def bson_type(validator, types, instance, schema):
    names = types if isinstance(types, list) else [types]
    for name in names:
        if name not in CHECKS:
            yield jsonschema.ValidationError(f"unknown bsonType {name!r}")
            return
    if not any(CHECKS[n](instance) for n in names):
        yield jsonschema.ValidationError(f"{instance!r} is not of bsonType {types}")


BSONValidator = jsonschema.validators.extend(jsonschema.Draft4Validator, {"bsonType": bson_type})
OPTIONS = bson.CodecOptions(datetime_conversion=bson.DatetimeConversion.DATETIME_AUTO)


def main():
    root = sys.argv[1]
    collections = 0
    for folder, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            if not name.endswith(".metadata.json"):
                continue
            collection = name[: -len(".metadata.json")]
            with open(os.path.join(folder, name)) as f:
                metadata = json_util.loads(f.read())
            schema = metadata.get("options", {}).get("validator", {}).get("$jsonSchema")
            where = os.path.relpath(os.path.join(folder, collection), root).replace(os.sep, ".")
            if schema is None:
                print(f"validate_dump: {where}: no $jsonSchema validator in its metadata", file=sys.stderr)
                sys.exit(1)
            if metadata.get("collectionName") != collection:
                print(f"validate_dump: {where}: metadata names {metadata.get('collectionName')!r}", file=sys.stderr)
                sys.exit(1)
            validator = BSONValidator(schema)
            with open(os.path.join(folder, collection + ".bson"), "rb") as f:
                documents = bson.decode_all(f.read(), OPTIONS)
            for index, document in enumerate(documents):
                errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
                if errors:
                    e = errors[0]
                    field = ".".join(str(p) for p in e.path) or "(document)"
                    print(f"validate_dump: {where}: document {index} field {field}: {e.message}", file=sys.stderr)
                    sys.exit(1)
            if documents and schema.get("required"):
                broken = dict(documents[0])
                broken.pop(schema["required"][0], None)
                if validator.is_valid(broken):
                    print(f"validate_dump: {where}: a document without {schema['required'][0]!r} passed", file=sys.stderr)
                    sys.exit(1)
            print(f"{where} {len(documents)}")
            collections += 1
    if collections == 0:
        print("validate_dump: no collection metadata found", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
