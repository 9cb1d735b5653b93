#!/usr/bin/env bash
# `make demo`: runs Porter's main job end to end on the bundled fixtures and says what it did.
# Usage: Fixtures/demo.sh PATH/TO/porter OUTPUT_DIR
set -euo pipefail
porter="$1"
out="$2"
here="$(cd "$(dirname "$0")" && pwd)"
rm -rf "$out"
mkdir -p "$out"

step() { printf '\n==> %s\n' "$*"; }
run() { printf '$ porter %s\n' "$*"; "$porter" "$@"; }
# Whether this build has a subcommand (the demo grows as features land).
has_command() { "$porter" --help | grep -qE "^[[:space:]]+$1([[:space:]]|$)"; }

step "Validate the fixture schema (every property type and relationship kind)"
run validate "$here/schemas/realm-docs.json"

step "A schema that breaks the rules is rejected with every error at once (exit code 1 expected)"
if run validate "$here/schemas/invalid/non-optional-link.json"; then echo "unexpected success" >&2; exit 1; fi

step "Create a database from the schema"
run create "$out/app.porter" --schema "$here/schemas/realm-docs.json"

if has_command import; then
  step "Import the fixture data (all or nothing, links resolved by primary key)"
  run import "$out/app.porter" "$here/data/realm-docs-fixture.json"
fi

step "Inspect the database"
run inspect "$out/app.porter"

if has_command export; then
  for format in bson ejson ejson-canonical json; do
    step "Export as $format"
    run export "$out/app.porter" --out "$out/export-$format" --format "$format"
    ls -l "$out/export-$format"
  done
fi

if has_command migrate && [ -f "$here/migration/demo.sh" ]; then
  step "Migrate a v1 database of the same app to v2"
  bash "$here/migration/demo.sh" "$porter" "$out/migration"
fi

printf '\nDemo finished. Files are in %s\n' "$out"
