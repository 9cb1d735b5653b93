"""One side of the "Python iterates every property" bench row (issue #39), in its own process so
that its peak memory is its own.

    python3 iterate.py porter FILE.realm CLASS   # porter_realm: objects as dicts of Python values
    python3 iterate.py porter-unchecked FILE.realm CLASS   # the same, open(check=False)
    python3 iterate.py sqlite FILE.sqlite CLASS  # Python's sqlite3 over Porter's SQLite export

Both touch every property value of every object and print one JSON line: the objects read, the
seconds the iteration took by the process's own clock (without the interpreter's start), and a
checksum of what was read so that neither side can skip work.
"""

import json
import sys
import time


def main() -> None:
    mode, path, class_name = sys.argv[1:4]
    started = time.perf_counter()
    objects = 0
    touched = 0
    if mode in ("porter", "porter-unchecked"):
        import porter_realm

        with porter_realm.open(path, check=mode == "porter") as realm:
            for document in realm.objects(class_name):
                objects += 1
                for value in document.values():
                    touched += value is not None
    elif mode == "sqlite":
        import sqlite3

        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        for row in connection.execute(f'SELECT * FROM "{class_name}"'):
            objects += 1
            for value in row:
                touched += value is not None
        connection.close()
    else:
        raise SystemExit(f"unknown mode {mode!r} (porter or sqlite)")
    seconds = time.perf_counter() - started
    print(json.dumps({"objects": objects, "seconds": seconds, "touched": touched}))


if __name__ == "__main__":
    main()
