#!/usr/bin/env bash
# Migration part of `make demo`: a v1 database of one app is diffed against the v2 model, the
# unsafe migration is refused, a plan is dry-run, then applied with a backup.
# Usage: Fixtures/migration/demo.sh PATH/TO/porter OUTPUT_DIR
set -euo pipefail
porter="$1"
out="$2"
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$out"
run() { printf '$ porter %s\n' "$*"; "$porter" "$@"; }

cp "$here/v1.porter" "$out/app.porter"
run inspect "$out/app.porter"

echo
echo "# What changes between the v1 database and the v2 model (exit code 2: there are changes)"
run diff "$out/app.porter" "$here/v2.json" || [ $? -eq 2 ]

echo
echo "# Without a plan Porter refuses to lose data (exit code 1 expected), and nothing is written"
if run migrate "$out/app.porter" --to "$here/v2.json"; then echo "unexpected success" >&2; exit 1; fi

echo
echo "# The plan (written by: porter plan v1.json v2.json --rename Person.name=fullName --fill Person.city=Unknown)"
run migrate "$out/app.porter" --to "$here/v2.json" --plan "$here/v1-to-v2.plan.json" --dry-run

echo
run migrate "$out/app.porter" --to "$here/v2.json" --plan "$here/v1-to-v2.plan.json" --backup "$out/app.v1-backup.porter"
run inspect "$out/app.porter"

