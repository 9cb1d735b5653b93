"""Evaluates MongoDB filters with mongomock (an evaluator independent of Porter) over the
Extended JSON export of `porter export --format ejson`, for QueryTranslationTests.

    python evaluate_filters.py EXPORT_FOLDER FILTERS.json

FILTERS.json is a list of {"class": ..., "filter": "<relaxed Extended JSON>"}; prints one JSON
line per filter: {"names": [the `name` of each matching document]} or {"error": "..."}.
Exits 3 when mongomock or bson (pymongo) cannot be imported, so the caller can say it skipped.
"""
import json
import os
import sys

try:
    import mongomock
    from bson import json_util
except ImportError as error:  # reported by the caller as a skip
    print(f"cannot import mongomock/bson: {error}", file=sys.stderr)
    sys.exit(3)


def documents(folder, class_name):
    """The documents of one class file: a JSON array or one document per line."""
    for name in (f"{class_name}.json", f"{class_name}.ejson"):
        path = os.path.join(folder, name)
        if os.path.exists(path):
            text = open(path, encoding="utf-8").read()
            stripped = text.lstrip()
            if stripped.startswith("["):
                return json_util.loads(text)
            return [json_util.loads(line) for line in text.splitlines() if line.strip()]
    raise FileNotFoundError(f"no export file for {class_name} in {folder}")


def main():
    folder, filters_path = sys.argv[1], sys.argv[2]
    filters = json.load(open(filters_path, encoding="utf-8"))
    client = mongomock.MongoClient()
    database = client["export"]
    for class_name in sorted({entry["class"] for entry in filters}):
        database[class_name].insert_many(documents(folder, class_name))
    for entry in filters:
        try:
            query = json_util.loads(entry["filter"])
            names = sorted(doc["name"] for doc in database[entry["class"]].find(query))
            print(json.dumps({"names": names}, ensure_ascii=False))
        except Exception as error:  # one line per filter, the test names it
            print(json.dumps({"error": f"{type(error).__name__}: {error}"}))


main()
