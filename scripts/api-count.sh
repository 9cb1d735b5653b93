#!/usr/bin/env bash
# Counts the public API per module from the symbol graphs `swift package dump-symbol-graph` writes:
# public types (structs, classes, enums, protocols, type aliases, actors) and public declarations
# (types and their members, functions, properties, cases, extension members), each counted once in
# the module whose source folder declares it (Porter re-exports the layers below: not counted twice).
#
# Usage: scripts/api-count.sh [--before REV]
#   without options: the working tree (symbol graphs built in .build);
#   --before REV: also REV, extracted into .build-before/src and built in .build-before/build, in
#   a before/after table (modules renamed in between show up on separate rows).
set -euo pipefail
swift=${SWIFT:-swift}
root=$(cd "$(dirname "$0")/.." && pwd)
before=""
while [ $# -gt 0 ]; do
  case $1 in
    --before) before=$2; shift 2 ;;
    *) echo "usage: $0 [--before REV]" >&2; exit 64 ;;
  esac
done

# Builds the package at $1 in scratch path $2 and prints the folder holding its symbol graphs.
# The command fails on the synthesized test modules (`PorterPackageTests`: no graph to emit) after
# writing every other module's graph: only a missing graph of a source module is an error.
graphs() {
  rm -rf "$2"/*/symbolgraph
  "$swift" package --package-path "$1" --scratch-path "$2" dump-symbol-graph \
    --skip-synthesized-members --minimum-access-level public >"$2/api-count.log" 2>&1 || true
  local found
  found=$(find "$2" -path '*/symbolgraph/*.symbols.json' | head -1)
  if [ -z "$found" ] || grep -v "PackageTests\|PackageDiscoveredTests" "$2/api-count.log" | grep -q "error:"; then
    tail -20 "$2/api-count.log" >&2
    exit 1
  fi
  dirname "$found"
}

mkdir -p "$root/.build"
after_dir=$(graphs "$root" "$root/.build")
before_dir=""
if [ -n "$before" ]; then
  # REV's files (no worktree registered): replaced when REV changes.
  src="$root/.build-before/src"
  rev=$(git -C "$root" rev-parse "$before")
  if [ "$(cat "$root/.build-before/rev" 2>/dev/null)" != "$rev" ]; then
    rm -rf "$src" && mkdir -p "$src"
    git -C "$root" archive "$rev" | tar -x -C "$src"
    echo "$rev" >"$root/.build-before/rev"
  fi
  mkdir -p "$root/.build-before/build"
  before_dir=$(graphs "$src" "$root/.build-before/build")
fi

python3 - "$after_dir" "$before_dir" "$before" <<'PY'
import glob, json, os, re, sys

TYPES = {"swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias", "swift.actor"}

def count(folder):
    """module -> (types, declarations), by the Sources/<Module>/ folder of each declaration."""
    seen, out = set(), {}
    for path in glob.glob(os.path.join(folder, "*.symbols.json")):
        for s in json.load(open(path)).get("symbols", []):
            uri = s.get("location", {}).get("uri", "")
            m = re.search(r"/Sources/([^/]+)/", uri)
            if not m or s.get("accessLevel") not in ("public", "open"):
                continue
            module = m.group(1)
            key = (module, s["identifier"]["precise"])
            if key in seen:
                continue
            seen.add(key)
            types, decls = out.get(module, (0, 0))
            out[module] = (types + (s["kind"]["identifier"] in TYPES), decls + 1)
    return out

after = count(sys.argv[1])
before = count(sys.argv[2]) if sys.argv[2] else None
if before is None:
    print("| module | public types | public declarations |")
    print("| --- | ---: | ---: |")
    for m in sorted(after):
        print(f"| {m} | {after[m][0]} | {after[m][1]} |")
    t = [sum(v[i] for v in after.values()) for i in (0, 1)]
    print(f"| total | {t[0]} | {t[1]} |")
else:
    print(f"| module | types before ({sys.argv[3]}) | types after | declarations before | declarations after |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for m in sorted(set(after) | set(before), key=str.lower):
        b, a = before.get(m), after.get(m)
        cell = lambda v, i: "—" if v is None else str(v[i])
        print(f"| {m} | {cell(b, 0)} | {cell(a, 0)} | {cell(b, 1)} | {cell(a, 1)} |")
    tb = [sum(v[i] for v in before.values()) for i in (0, 1)]
    ta = [sum(v[i] for v in after.values()) for i in (0, 1)]
    print(f"| total | {tb[0]} | {ta[0]} | {tb[1]} | {ta[1]} |")
PY
