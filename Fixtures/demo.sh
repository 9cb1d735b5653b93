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
# Prints the command as it would be typed (arguments with spaces or shell characters quoted), then runs it.
run() {
  local shown="" a
  for a in "$@"; do
    case "$a" in *[[:space:]\<\>\*\|\;\&]*) shown+=" '$a'" ;; *) shown+=" $a" ;; esac
  done
  printf '$ porter%s\n' "$shown"
  "$porter" "$@"
}
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

# Realm files of the repository (Fixtures/realm/, made with realm-core 14.14.0, file format 24).
# The demo works on copies in the output folder: the fixtures are never written.
fixtures="$here/realm"
cp "$fixtures/every-type.realm" "$fixtures/inner-nodes.realm" "$fixtures/every-type-encrypted.realm" "$out/"

step "Read a Realm file with no realm-core: Fixtures/realm/every-type.realm (every property type)"
run inspect "$out/every-type.realm"
run check "$out/every-type.realm"

step "Export every class of it, one JSON file per class, and one class to stdout"
run export "$out/every-type.realm" --out "$out/every-type-json" --format json
ls -l "$out/every-type-json"
run export "$out/every-type.realm" --class Target --out - --format json

step "Query a Realm file while exporting: Fixtures/realm/inner-nodes.realm (1,000 objects)"
run schema "$out/inner-nodes.realm"
run export "$out/inner-nodes.realm" --class Many --query 'id < 3' --fields id,label --out - --format json

step "Migrate a copy of inner-nodes.realm to a v1 model (rename, new required property filled, new optional property), with a backup"
run diff "$out/inner-nodes.realm" "$fixtures/migration/inner-nodes-v1.json" --rename Many.label=title || [ $? -eq 2 ]
run migrate "$out/inner-nodes.realm" --to "$fixtures/migration/inner-nodes-v1.json" --rename Many.label=title \
  --fill Many.status=new --backup "$out/inner-nodes.v0.realm"
run inspect "$out/inner-nodes.realm"
run check "$out/inner-nodes.realm"
run export "$out/inner-nodes.realm" --class Many --query 'id < 2' --fields id,title,status,score --out - --format json
cmp "$fixtures/inner-nodes.realm" "$out/inner-nodes.v0.realm" && echo "The backup is byte for byte the file before the migration."

step "An encrypted Realm file: refused without its key (exit code 1 expected), read with it"
if run inspect "$out/every-type-encrypted.realm"; then echo "unexpected success" >&2; exit 1; fi
run inspect "$out/every-type-encrypted.realm" --encryption-key 6465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9fa0a1a2a3

# Real Realm files of other projects live beside the project, in ../shared/realm-files (Porter
# keeps no copies); the demo reads one more there when that folder is present.
shared="$here/../../shared/realm-files"
realm="$shared/swift-migration-default-v5.realm"
if [ ! -f "$realm" ]; then
  step "Skipped: a Realm Swift 10 file of format 20 (../shared/realm-files is absent; the steps above did not need it)"
else
  step "Read a real .realm file written by Realm Swift 10 (file format 20)"
  run inspect "$realm"
  run export "$realm" --out "$out/from-realm" --format json
  cat "$out/from-realm/Person.json"

  step "Migrate a copy of it offline to a v6 model (rename, int -> string, new required field), with a backup"
  cp "$realm" "$out/app.realm"
  run migrate "$out/app.realm" --to "$here/realm/migration/swift-example-v6.json" --rename Person.fullName=name \
    --fill Person.email=unknown@example.com --backup "$out/app.v5.realm"
  run inspect "$out/app.realm"
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
