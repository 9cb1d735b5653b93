#!/bin/bash
# The embedded reader as built (issue #38): its binary links no system C library that Porter's
# command uses (ldd), and it reads every Realm file of Fixtures/realm, encrypted ones with their
# key, with the same classes and object counts as `porter inspect --json`.
# usage: check-binary.sh EMBEDDED-READER PORTER
set -u
reader=$1 porter=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
status=0
# The check's own check: porter itself links Debian's libbson, json-c and SQLite, and the same
# pattern must see them.
if ! ldd "$porter" | grep -qE 'lib(crypto|ssl|bson|json-c|z|pq|sqlite3)\.so'; then
  echo "check-binary: the pattern finds no system library in $porter either: the check is broken" >&2; exit 1
fi
linked=$(ldd "$reader" | grep -E 'lib(crypto|ssl|bson|json-c|z|pq|sqlite3)\.so' || true)
if [ -n "$linked" ]; then
  echo "check-binary: $reader links system libraries:" >&2; echo "$linked" >&2; status=1
fi
# Keys of the encrypted fixtures (Fixtures/realm/README.md): bytes 100…163 for realm-core's
# every-type-encrypted.realm, bytes 0…63 for the writer's golden written/links-encrypted.realm.
files=0
for f in "$root"/Fixtures/realm/*.realm "$root"/Fixtures/realm/written/*.realm; do
  args=()
  case "$f" in
    */every-type-encrypted.realm) args=("$(python3 -c 'print(bytes(range(100, 164)).hex())')");;
    */written/links-encrypted.realm) args=("$(python3 -c 'print(bytes(range(64)).hex())')");;
    *-encrypted.realm) echo "check-binary: $f: no key known for it" >&2; status=1; continue;;
  esac
  key=${args[0]:-}
  if ! got=$("$reader" "$f" "${args[@]}" 2>&1); then
    echo "check-binary: $f: $got" >&2; status=1; continue
  fi
  keyoption=(); [ ${#args[@]} -gt 0 ] && keyoption=(--encryption-key "$key")
  want=$("$porter" inspect "$f" --json "${keyoption[@]}" | python3 -c '
import json, sys
for c in json.load(sys.stdin)["classes"]:
    print(c["name"] + "\t" + str(c["objects"]))')
  if [ "$(echo "$got" | sort)" != "$(echo "$want" | sort)" ]; then
    echo "check-binary: $f: the embedded reader counts" >&2; echo "$got" >&2
    echo "but porter inspect counts" >&2; echo "$want" >&2; status=1
  fi
  files=$((files + 1))
done
[ $status -eq 0 ] && echo "check-binary: no system library linked; $files Realm files read with porter's counts"
exit $status
