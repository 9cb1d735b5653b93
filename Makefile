# Porter: `make test` and `make demo` work on a fresh Debian machine with the Swift toolchain.
SWIFT ?= swift
DEBS := libbson-dev libjson-c-dev libsqlite3-dev libssl-dev zlib1g-dev libpq-dev sqlite3 python3 postgresql
# Commands the tests run: sqlite3 plants a trigger, python3 (sqlite3 module) builds damaged databases,
# psql loads and reads back PostgreSQL exports (the server: Debian's postgresql, scripts/postgres-server.sh).
TOOLS := sqlite3 python3 psql
PKGCONF := libbson-1.0 json-c sqlite3 libcrypto zlib libpq
N ?= 1000000
REPEAT ?= 3
SHAPES ?= flat,onelink,linked,nested
DEMO_DIR ?= .build/demo

.PHONY: deps build release test lint format demo bench clean torture fuzz sanitize

# Install the Debian packages Porter links against, when any is missing.
deps:
	@missing=""; for p in $(PKGCONF); do pkg-config --exists $$p 2>/dev/null || missing=yes; done; \
	command -v pkg-config >/dev/null 2>&1 || missing=yes; \
	for t in $(TOOLS); do command -v $$t >/dev/null 2>&1 || missing=yes; done; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing=yes; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = "0" ]; then \
	    echo "Installing $(DEBS) pkg-config"; \
	    (apt-get install -y $(DEBS) pkg-config || (apt-get update && apt-get install -y $(DEBS) pkg-config)) >/dev/null; \
	  else \
	    echo "Missing C libraries or tools: run 'sudo apt-get install -y $(DEBS) pkg-config' and retry." >&2; exit 1; \
	  fi; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product porter

# The whole suite runs beside a private PostgreSQL server (scripts/postgres-server.sh: its own data
# folder and Unix socket in a temporary folder, no TCP, not root), stopped at the end however the
# tests end; PORTER_TEST_POSTGRES tells the PostgreSQL tests where it is.
test: deps
	$(SWIFT) build --build-tests
	@folder=$$(sh scripts/postgres-server.sh start) || exit 1; \
	trap 'sh scripts/postgres-server.sh stop "$$folder"' EXIT INT TERM; \
	PORTER_TEST_POSTGRES="$$folder" $(SWIFT) test --skip-build
	$(MAKE) lint

# Only the PostgreSQL tests, beside their own private server.
.PHONY: test-postgres
test-postgres: deps
	$(SWIFT) build --build-tests
	@folder=$$(sh scripts/postgres-server.sh start) || exit 1; \
	trap 'sh scripts/postgres-server.sh stop "$$folder"' EXIT INT TERM; \
	PORTER_TEST_POSTGRES="$$folder" $(SWIFT) test --skip-build --filter Postgres

# The style check `make test` (and so CI) runs: `swift format lint --strict` with `.swift-format`
# (swift-format ships with the Swift 6 toolchain); `make format` fixes what it finds.
FORMATTED := Sources Tests Benchmarks Fuzz
lint:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMATTED)

# Formats the tree in place (twice: a few wrapped lines settle only on the second pass).
format:
	$(SWIFT) format --in-place --recursive --parallel $(FORMATTED)
	$(SWIFT) format --in-place --recursive --parallel $(FORMATTED)

demo: release
	@bash Fixtures/demo.sh "$$($(SWIFT) build -c release --show-bin-path)/porter" "$(DEMO_DIR)"

# Release build, seeded datasets of N objects per shape, each operation in its own process,
# best of REPEAT runs.
# pymongo's comparison runs when `python3 -c "import bson"` works (pip install pymongo); the Realm
# file rows (realm-core's own figures beside Porter's) when ../shared/tools/realm-oracle is present.
# SHAPES picks the generated shapes (none: only the schema, typed and Realm file rows).
# ONLY picks one group of rows: leaving (per shape: build, export bson and the "Leaving Realm" rows:
# sqlite, csv, --query), realm-walks (Realm file diff, general-path migration), create (many classes),
# studio (first page, sort, query of a class in `porter studio`), typed (issue 22: typed write, read,
# sorted query, typed read of a Realm file, BSON import vs its floor, fixture load; realm-core's
# figures from $REALM_ORACLE, e.g. REALM_ORACLE=/work/ext/bin/realm-oracle-rel, in the same run).
bench: deps
	$(SWIFT) build -c release --product porter
	$(SWIFT) build -c release --product porter-bench
	$(SWIFT) build -c release --product porter-realm-write-bench
	"$$($(SWIFT) build -c release --show-bin-path)/porter-bench" --objects $(N) --repeat $(REPEAT) --shapes $(SHAPES) --work .build/bench --json bench-results.json $(if $(ONLY),--only $(ONLY))

clean:
	rm -rf .build

# --- Hardening (README, "Reliability") -------------------------------------------------------

# Crash-safety torture: SIGKILLs porter import, porter migrate and a Swift-API writer at random
# moments, TORTURE_KILLS times each (seeded by TORTURE_SEED), and checks every file left behind.
TORTURE_KILLS ?= 100
TORTURE_SEED ?= 20251121
TORTURE_SCRATCH ?= .build
torture: deps
	$(SWIFT) build --build-tests --scratch-path $(TORTURE_SCRATCH)
	PORTER_TORTURE_KILLS=$(TORTURE_KILLS) PORTER_TORTURE_SEED=$(TORTURE_SEED) \
	  $(SWIFT) test --skip-build --scratch-path $(TORTURE_SCRATCH) --filter 'PorterHardeningTests.TortureTests'

# libFuzzer targets (a separate package under Fuzz/), FUZZ_SECONDS each, ASan on.
FUZZ_SECONDS ?= 60
FUZZ_SCRATCH ?= .build-fuzz
FUZZ_TARGETS ?= FuzzBSONImport FuzzEJSONImport FuzzJSONImport FuzzSchemaFile FuzzRealmFile
fuzz: deps
	@bash Fuzz/run.sh "$(SWIFT)" "$(FUZZ_SCRATCH)" "$(FUZZ_SECONDS)" $(FUZZ_TARGETS)

# The test suite under AddressSanitizer, then ThreadSanitizer (SANITIZE_FILTER narrows it).
# Memory bounds of the hostile-input tests widen (sanitizers multiply resident memory).
SANITIZE_FILTER ?=
# print_suppressions=0: a suppressed toolchain leak must not add lines to a child porter's stderr.
SANITIZE_ENV := PORTER_RSS_LIMIT_SCALE=8 LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/sanitizer-suppressions.txt:print_suppressions=0
sanitize: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	$(SANITIZE_ENV) $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan $(if $(SANITIZE_FILTER),--filter '$(SANITIZE_FILTER)')
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	$(SANITIZE_ENV) PORTER_SANITIZER=thread $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan $(if $(SANITIZE_FILTER),--filter '$(SANITIZE_FILTER)')

# --- Studio in a real browser (README, "Studio") ---------------------------------------------

# Headless Chromium through Selenium drives `porter studio`: Debian's chromium and chromium-driver
# (installed when root) and Python selenium from PyPI (pip), when missing. Screenshots go to
# UI_SHOTS: a folder under .build, so a test run leaves the tree clean; `make test-ui UI_SHOTS=docs`
# refreshes README's pictures.
.PHONY: test-ui
UI_SHOTS ?= .build/studio-screenshots
UI_DEBS := chromium chromium-driver python3-pip
test-ui: deps
	@if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1 \
	    || ! python3 -m pip --version >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = "0" ]; then \
	    echo "Installing $(UI_DEBS)"; \
	    (apt-get install -y $(UI_DEBS) || (apt-get update && apt-get install -y $(UI_DEBS))) >/dev/null; \
	  else \
	    echo "Missing chromium/chromedriver: run 'sudo apt-get install -y $(UI_DEBS)' and retry." >&2; exit 1; \
	  fi; \
	fi
	@python3 -c "import selenium" 2>/dev/null || python3 -m pip install --quiet selenium 2>/dev/null \
	  || python3 -m pip install --quiet --break-system-packages selenium
	$(SWIFT) build --product porter
	python3 Tests/StudioUI/test_studio.py "$$($(SWIFT) build --show-bin-path)/porter" $(UI_SHOTS)

# --- Public API counts (issue #19) ----------------------------------------------------------------

# Public types and declarations per module from `swift package dump-symbol-graph`, before (API_BEFORE,
# the commit before issue #19's stack work, built in .build-before) and after (the working tree).
.PHONY: api-count
API_BEFORE ?= 6a1bf03
api-count: deps
	bash scripts/api-count.sh --before $(API_BEFORE)
