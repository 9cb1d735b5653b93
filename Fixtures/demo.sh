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

# Real Realm files of other projects live beside the project, in ../shared/realm-files (Porter
# keeps no copies); the steps that read them are skipped where that folder is absent.
shared="$here/../../shared/realm-files"
realm="$shared/swift-migration-default-v5.realm"
if [ ! -f "$realm" ]; then
  step "Skipped: reading and migrating a Realm Swift file (../shared/realm-files is absent)"
else
  step "Read a real .realm file written by Realm Swift 10 (file format 20), with no realm-core"
  run inspect "$realm"
  run schema "$realm"
  run export "$realm" --out "$out/from-realm" --format json
  cat "$out/from-realm/Person.json"

  step "Migrate a copy of it offline to a v6 model (rename, int -> string, new required field), with a backup"
  cp "$realm" "$out/app.realm"
  run diff "$out/app.realm" "$here/realm/migration/swift-example-v6.json" --rename Person.fullName=name || true
  run migrate "$out/app.realm" --to "$here/realm/migration/swift-example-v6.json" --rename Person.fullName=name \
    --fill Person.email=unknown@example.com --backup "$out/app.v5.realm"
  run inspect "$out/app.realm"
  run check "$out/app.realm"

  step "An encrypted Realm file: refused without its key, read with it"
  enc="$shared/dev-encrypted-realm-docs.realm"
  if run inspect "$enc"; then echo "unexpected success" >&2; exit 1; fi
  run inspect "$enc" --encryption-key 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f
fi

if has_command export; then
  step "Write the Porter database as a Realm file (format 24) that Realm Swift 10.49+ opens"
  run export "$out/app.porter" --format realm --out "$out/bundled.realm"
  run inspect "$out/bundled.realm"
fi

if has_command migrate && [ -f "$here/migration/demo.sh" ]; then
  step "Migrate a v1 database of the same app to v2"
  bash "$here/migration/demo.sh" "$porter" "$out/migration"
fi

printf '\nDemo finished. Files are in %s\n' "$out"
