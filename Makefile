# Porter: `make test` and `make demo` work on a fresh Debian machine with the Swift toolchain.
SWIFT ?= swift
DEBS := libbson-dev libjson-c-dev libsqlite3-dev zlib1g-dev libpq-dev sqlite3 python3 postgresql
# Commands the tests run: sqlite3 plants a trigger, python3 (sqlite3 module) builds damaged databases,
# psql loads and reads back PostgreSQL exports (the server: Debian's postgresql, scripts/postgres-server.sh).
TOOLS := sqlite3 python3 psql
PKGCONF := libbson-1.0 json-c sqlite3 zlib libpq
N ?= 1000000
REPEAT ?= 3
SHAPES ?= flat,onelink,linked,nested
DEMO_DIR ?= .build/demo

.PHONY: deps build release test lint format demo docs bench clean torture fuzz sanitize

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
test: deps python-mongomock
	$(SWIFT) build --build-tests
	@folder=$$(sh scripts/postgres-server.sh start) || exit 1; \
	trap 'sh scripts/postgres-server.sh stop "$$folder"' EXIT INT TERM; \
	PORTER_TEST_POSTGRES="$$folder" $(SWIFT) test --skip-build
	$(MAKE) test-bindings
	$(MAKE) test-embedded
	$(MAKE) lint

# The embeddable reader as an app sees it (Tests/EmbeddedReader, issue #38): a package that depends
# on the PorterRealmFile product alone. Its dependency closure, read from SwiftPM's own package
# descriptions, holds no system library; its binary links none; it reads every Realm file of
# Fixtures/realm (encrypted ones too) with porter's counts.
EMBED_SCRATCH ?= .build/embedded-reader
.PHONY: test-embedded
test-embedded: deps
	$(SWIFT) build --package-path Tests/EmbeddedReader --scratch-path $(EMBED_SCRATCH)
	$(SWIFT) build --product porter
	python3 Tests/EmbeddedReader/check-closure.py $(abspath $(EMBED_SCRATCH))
	python3 Tests/EmbeddedReader/check-closure.py $(abspath .build) --package-path . --target PorterTool --expect-system
	bash Tests/EmbeddedReader/check-binary.sh \
	  "$$($(SWIFT) build --package-path Tests/EmbeddedReader --scratch-path $(EMBED_SCRATCH) --show-bin-path)/embedded-reader" \
	  "$$($(SWIFT) build --show-bin-path)/porter"

# Only the PostgreSQL tests, beside their own private server.
.PHONY: test-postgres
test-postgres: deps
	$(SWIFT) build --build-tests
	@folder=$$(sh scripts/postgres-server.sh start) || exit 1; \
	trap 'sh scripts/postgres-server.sh stop "$$folder"' EXIT INT TERM; \
	PORTER_TEST_POSTGRES="$$folder" $(SWIFT) test --skip-build --filter Postgres

# mongomock and pymongo's bson (PyPI) in the virtual environment under .build: QueryTranslationTests
# evaluates the MongoDB filters of `porter query translate` with them, DumpNamespaceTests validates
# dumps with pymongo and jsonschema (each skipped, saying so, without).
.PHONY: python-mongomock python-venv
python-mongomock: python-venv
	@$(PY_VENV)/bin/python -c "import mongomock, bson, jsonschema" 2>/dev/null || $(PY_VENV)/bin/python -m pip install --quiet mongomock pymongo jsonschema

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

# The DocC documentation of the library products (Sources/*/*.docc and the `///` comments), built
# by swift-docc-plugin from the package mirror; DocC's warnings are errors, so a broken symbol or
# article link fails. Each archive lands in .build/plugins/Swift-DocC/outputs/TARGET.doccarchive.
DOCS_TARGETS ?= Porter PorterRealmFile
docs: deps
	@for t in $(DOCS_TARGETS); do \
	  echo "Documentation of $$t"; \
	  $(SWIFT) package generate-documentation --target $$t --warnings-as-errors || exit 1; \
	done

# Release build, seeded datasets of N objects per shape, each operation in its own process,
# best of REPEAT runs.
# pymongo's comparison runs when `python3 -c "import bson"` works (pip install pymongo); the Realm
# file rows (realm-core's own figures beside Porter's) when ../shared/tools/realm-oracle is present.
# SHAPES picks the generated shapes (none: only the schema, typed and Realm file rows).
# ONLY picks one group of rows: leaving (per shape: build, export bson and the "Leaving Realm" rows:
# sqlite, csv, --query), realm-walks (Realm file diff, general-path migration), create (many classes),
# studio (first page, sort, query of a class in `porter studio`), typed (issue 22: typed write, read,
# sorted query, typed read of a Realm file, BSON import vs its floor, fixture load; realm-core's
# figures from $REALM_ORACLE, e.g. REALM_ORACLE=/work/ext/bin/realm-oracle-rel, in the same run),
# bindings (issue 39: Python iterating every property through porter_realm vs Python's sqlite3 over
# the SQLite export, time and peak memory), check (issue 35: porter check of a Realm file vs
# realm-oracle check, realm-core's own check of it; and porter check of a Porter database vs
# PRAGMA integrity_check plus a read of every value), inapp (issue 38: porter verify beside the SQLite
# export it checks; the embeddable reader's peak memory at N against N/10), postgres (issue 40: export
# --to postgresql:// vs psql's \copy of Porter's CSV, and --format postgres vs --format sqlite, beside
# a private server it starts).
bench: deps
	$(SWIFT) build -c release --product porter
	$(SWIFT) build -c release --product porter-bench
	$(SWIFT) build -c release --product porter-realm-write-bench
	$(SWIFT) build -c release --product PorterC
	"$$($(SWIFT) build -c release --show-bin-path)/porter-bench" --objects $(N) --repeat $(REPEAT) --shapes $(SHAPES) --work .build/bench --json bench-results.json $(if $(ONLY),--only $(ONLY))

clean:
	rm -rf .build

# --- Hardening (the Safety guide, "How it is tested") -------------------------------------------------------

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
FUZZ_TARGETS ?= FuzzBSONImport FuzzEJSONImport FuzzJSONImport FuzzSchemaFile FuzzRealmFile FuzzLegacyRealmFile FuzzCAPI
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

# --- Studio in a real browser (the Studio guide) ---------------------------------------------

# Headless Chromium through Selenium drives `porter studio`: Debian's chromium and chromium-driver
# (installed when root) and Python selenium from PyPI (pip), when missing. Screenshots go to
# UI_SHOTS: a folder under .build, so a test run leaves the tree clean; `make test-ui UI_SHOTS=docs`
# refreshes the pictures in docs/.
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

# --- The C library and the Python package (README, "From other languages") -------------------

# libporter.so, libporter.a and porter.h in LIB_DIR (LIB_CONFIG release by default; the tests use
# the debug build `make test` made anyway). SwiftPM names the products PorterC and PorterCStatic
# (the name `porter` is the executable's); the copies carry the names porter.h documents.
LIB_CONFIG ?= release
LIB_DIR ?= .build/lib
BINDINGS_CC ?= clang
.PHONY: lib test-bindings test-c test-python test-jvm jvm test-node node-deps sanitize-lib valgrind-lib wheel
lib: deps
	$(SWIFT) build -c $(LIB_CONFIG) --product PorterC
	$(SWIFT) build -c $(LIB_CONFIG) --product PorterCStatic
	@bin="$$($(SWIFT) build -c $(LIB_CONFIG) --show-bin-path)"; mkdir -p $(LIB_DIR) && \
	  cp "$$bin/libPorterC.so" $(LIB_DIR)/libporter.so && cp "$$bin/libPorterCStatic.a" $(LIB_DIR)/libporter.a && \
	  cp bindings/c/include/porter.h $(LIB_DIR)/porter.h
	@bash bindings/c/check-exports.sh $(LIB_DIR)/libporter.so
	@echo "Built $(LIB_DIR)/libporter.so, $(LIB_DIR)/libporter.a, $(LIB_DIR)/porter.h"

# The C test program and the Python package's tests against the debug library, reading
# Fixtures/realm and ../shared/realm-files (skipped with a message when absent).
# TEST_LIB_DIR=DIR (on the command line) tests a library built elsewhere as it is: DIR/libporter.so
# and DIR/porter.h are used, not rebuilt.
TEST_LIB_DEFAULT := .build/lib-debug
TEST_LIB_DIR := $(TEST_LIB_DEFAULT)
REALM_FOLDERS := Fixtures/realm Fixtures/realm/written Fixtures/realm/column-migration ../shared/realm-files \
  ../shared/realm-files/legacy/core ../shared/realm-files/legacy/java
test-bindings: test-c test-python test-jvm test-node

# TEST_LIB_DIR given on the command line names a ready library (e.g. a snapshot build): used as
# it is, never rebuilt or overwritten.
$(TEST_LIB_DIR)/libporter.so: FORCE
ifeq ($(origin TEST_LIB_DIR),command line)
	@test -f $@ || { echo "No $@ (TEST_LIB_DIR=$(TEST_LIB_DIR) must hold a built libporter.so and porter.h)" >&2; exit 1; }
else
	@$(MAKE) --no-print-directory lib LIB_CONFIG=debug LIB_DIR=$(TEST_LIB_DIR)
endif
.PHONY: FORCE
FORCE:

test-c: $(TEST_LIB_DIR)/libporter.so
	$(SWIFT) build --product porter
	$(BINDINGS_CC) -std=c99 -Wall -Wextra -Werror -pedantic -I$(TEST_LIB_DIR) bindings/c/test_porter.c \
	  -L$(TEST_LIB_DIR) -lporter -lpthread -Wl,-rpath,$(abspath $(TEST_LIB_DIR)) -o .build/test_porter
	.build/test_porter "$$($(SWIFT) build --show-bin-path)/porter" $(REALM_FOLDERS)

# The C test program under AddressSanitizer and UndefinedBehaviorSanitizer (the toolchain's
# clang, so its runtime is the one the sanitized Swift code expects), against a library built
# with --sanitize=address in .build-asan.
ASAN_LIB_DIR := .build-asan/lib
sanitize-lib: deps
	$(SWIFT) build --product porter
	$(SWIFT) build --sanitize=address --scratch-path .build-asan --product PorterC
	@mkdir -p $(ASAN_LIB_DIR) && cp "$$($(SWIFT) build --sanitize=address --scratch-path .build-asan --show-bin-path)/libPorterC.so" \
	  $(ASAN_LIB_DIR)/libporter.so && cp bindings/c/include/porter.h $(ASAN_LIB_DIR)/
	clang -std=c99 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fuse-ld=lld -I$(ASAN_LIB_DIR) \
	  bindings/c/test_porter.c -L$(ASAN_LIB_DIR) -lporter -lpthread -Wl,-rpath,$(CURDIR)/$(ASAN_LIB_DIR) \
	  -o .build-asan/test_porter
	$(SANITIZE_ENV) ASAN_OPTIONS=detect_leaks=1 .build-asan/test_porter "$$($(SWIFT) build --show-bin-path)/porter" $(REALM_FOLDERS)

# open / iterate / export / close cycles under valgrind: no definite leak, no memory error.
VALGRIND_CYCLES ?= 20
valgrind-lib: test-c
	PORTER_TEST_CYCLES=$(VALGRIND_CYCLES) valgrind --leak-check=full --errors-for-leak-kinds=definite \
	  --error-exitcode=1 .build/test_porter "$$($(SWIFT) build --show-bin-path)/porter" Fixtures/realm

# The Python package (bindings/python, imported as porter_realm) installed with pip into a
# virtual environment under .build with the debug library, then its pytest suite. python3-venv
# comes from Debian (installed when root); pytest from Debian's python3-pytest or PyPI.
PY_VENV := .build/python-venv
# The virtual environment itself (python3-venv from Debian, installed when root).
python-venv:
	@python3 -m venv --help >/dev/null 2>&1 && python3 -c "import ensurepip" 2>/dev/null || { \
	  if [ "$$(id -u)" = "0" ]; then \
	    echo "Installing python3-venv python3-pip"; \
	    (apt-get install -y python3-venv python3-pip || (apt-get update && apt-get install -y python3-venv python3-pip)) >/dev/null; \
	  else echo "Missing python3-venv: run 'sudo apt-get install -y python3-venv python3-pip' and retry." >&2; exit 1; fi; }
	@[ -x $(PY_VENV)/bin/python ] || python3 -m venv --system-site-packages $(PY_VENV)
test-python: $(TEST_LIB_DIR)/libporter.so python-venv
	$(SWIFT) build --product porter
	@$(PY_VENV)/bin/python -c "import pytest" 2>/dev/null || $(PY_VENV)/bin/python -m pip install --quiet pytest
	PORTER_LIB=$(abspath $(TEST_LIB_DIR))/libporter.so $(PY_VENV)/bin/python -m pip install --quiet --force-reinstall --no-deps ./bindings/python
	cd bindings/python/tests && PORTER_BINARY="$$(cd $(CURDIR) && $(SWIFT) build --show-bin-path)/porter" \
	  PORTER_FIXTURES=$(CURDIR)/Fixtures/realm PORTER_SHARED=$(CURDIR)/../shared/realm-files \
	  $(CURDIR)/$(PY_VENV)/bin/python -m pytest -q -rs -p no:cacheprovider .

# The JVM binding (bindings/jvm: the dev.porter classes and the JNI glue porter_jni.c over porter.h)
# with Debian's JDK 17 and JUnit 5 (installed when root): plain javac, java and the C compiler,
# nothing downloaded. Build outputs in JVM_DIR: libporterjni.so (linked to LIB/libporter.so with an
# rpath), classes/, porter.jar. Its JUnit tests compare every object of every Realm file of
# Fixtures/realm and ../shared/realm-files (skipped with a reason when absent) with PORTER_BIN's
# `porter export --format ejson-canonical` (default: the debug build of porter).
JVM_DEBS := openjdk-17-jdk-headless junit5
JUNIT_JAR := /usr/share/java/junit-platform-console-standalone.jar
JAVA_HOME_OF_JAVAC = $$(dirname "$$(dirname "$$(readlink -f "$$(command -v javac)")")")
PORTER_BIN ?=
define jvm-deps
	@command -v javac >/dev/null 2>&1 && [ -f "$(JAVA_HOME_OF_JAVAC)/include/jni.h" ] && [ -f $(JUNIT_JAR) ] || { \
	  if [ "$$(id -u)" = "0" ]; then \
	    echo "Installing $(JVM_DEBS)"; \
	    (apt-get install -y $(JVM_DEBS) || (apt-get update && apt-get install -y $(JVM_DEBS))) >/dev/null; \
	  else echo "Missing a JDK or JUnit 5: run 'sudo apt-get install -y $(JVM_DEBS)' and retry." >&2; exit 1; fi; }
endef
# $(call jvm-build,LIB,JVM_DIR)
define jvm-build
	@rm -rf $(2) && mkdir -p $(2)/classes
	java_home="$(JAVA_HOME_OF_JAVAC)"; $(BINDINGS_CC) -std=c11 -Wall -Wextra -Werror -pedantic -fPIC -shared \
	  -I"$$java_home/include" -I"$$java_home/include/linux" -I$(1) bindings/jvm/src/main/c/porter_jni.c \
	  -L$(1) -lporter -Wl,-rpath,$(abspath $(1)) -o $(2)/libporterjni.so
	javac --release 11 -Xlint:all -Werror -d $(2)/classes $$(find bindings/jvm/src/main/java -name '*.java' | sort)
	jar --create --file $(2)/porter.jar -C $(2)/classes .
endef

test-jvm: $(TEST_LIB_DIR)/libporter.so
	$(jvm-deps)
	$(if $(PORTER_BIN),,$(SWIFT) build --product porter)
	$(call jvm-build,$(TEST_LIB_DIR),.build/jvm-test)
	@mkdir -p .build/jvm-test/test-classes
	javac -Xlint:all -Werror -cp .build/jvm-test/porter.jar:$(JUNIT_JAR) -d .build/jvm-test/test-classes \
	  $$(find bindings/jvm/src/test/java -name '*.java' | sort)
	"$(JAVA_HOME_OF_JAVAC)/bin/java" -Xcheck:jni -Dporter.jni.library=$(CURDIR)/.build/jvm-test/libporterjni.so \
	  -Dporter.binary="$(or $(PORTER_BIN),$$($(SWIFT) build --show-bin-path)/porter)" \
	  -Dporter.fixtures=$(CURDIR)/Fixtures/realm -Dporter.shared=$(abspath $(CURDIR)/../shared/realm-files) \
	  -jar $(JUNIT_JAR) --disable-banner --disable-ansi-colors --details=tree --fail-if-no-tests \
	  --class-path .build/jvm-test/porter.jar:.build/jvm-test/test-classes --select-package dev.porter

# The JVM binding against the release library of `make lib`, in .build/jvm: porter.jar and
# libporterjni.so (bindings/jvm/README.md).
jvm: lib
	$(jvm-deps)
	$(call jvm-build,$(LIB_DIR),.build/jvm)
	@echo "Built .build/jvm/porter.jar and .build/jvm/libporterjni.so (linked to $(abspath $(LIB_DIR))/libporter.so)"

# The Node.js binding (bindings/node): its N-API addon compiled with cc against Node's headers
# (Debian's libnode-dev, with nodejs; installed when root) into .build/node/porter.node, linked to
# the debug library (rpath), then its node:test suite reading Fixtures/realm and
# ../shared/realm-files (skipped with a reason when absent). No node-gyp: nothing is downloaded.
# PORTER_BIN: the porter binary the tests compare with (default: the debug build, built here).
NODE_CC ?= cc
NODE_INCLUDE ?= /usr/include/node
NODE_DEBS := nodejs libnode-dev
NODE_ADDON := .build/node/porter.node
node-deps:
	@command -v node >/dev/null 2>&1 && [ -f $(NODE_INCLUDE)/node_api.h ] || { \
	  if [ "$$(id -u)" = "0" ]; then \
	    echo "Installing $(NODE_DEBS)"; \
	    (apt-get install -y $(NODE_DEBS) || (apt-get update && apt-get install -y $(NODE_DEBS))) >/dev/null; \
	  else echo "Missing Node.js or its headers ($(NODE_INCLUDE)/node_api.h): run 'sudo apt-get install -y $(NODE_DEBS)' and retry." >&2; exit 1; fi; }
	@command -v node >/dev/null 2>&1 && [ -f $(NODE_INCLUDE)/node_api.h ] || { \
	  echo "Still no node or $(NODE_INCLUDE)/node_api.h after installing $(NODE_DEBS)" >&2; exit 1; }

test-node: $(TEST_LIB_DIR)/libporter.so node-deps
	@mkdir -p $(dir $(NODE_ADDON))
	$(NODE_CC) -std=c11 -O2 -Wall -Wextra -Werror -shared -fPIC -I$(NODE_INCLUDE) -I$(TEST_LIB_DIR) \
	  bindings/node/src/porter_node.c -L$(TEST_LIB_DIR) -lporter -Wl,-rpath,$(abspath $(TEST_LIB_DIR)) -o $(NODE_ADDON)
	@bin="$(PORTER_BIN)"; if [ -z "$$bin" ]; then $(SWIFT) build --product porter && bin="$$($(SWIFT) build --show-bin-path)/porter"; fi; \
	  echo "node --test bindings/node/test/ (porter: $$bin, library: $(TEST_LIB_DIR))"; \
	  PORTER_BINARY="$$bin" PORTER_NODE_ADDON=$(CURDIR)/$(NODE_ADDON) PORTER_FIXTURES=$(CURDIR)/Fixtures/realm \
	  PORTER_SHARED=$(abspath ../shared/realm-files) node --test bindings/node/test/

# A wheel of the Python package, with the release library inside, in .build/wheels.
wheel: lib
	@python3 -m pip --version >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = "0" ]; then (apt-get install -y python3-pip || (apt-get update && apt-get install -y python3-pip)) >/dev/null; \
	  else echo "Missing pip: run 'sudo apt-get install -y python3-pip' and retry." >&2; exit 1; fi; }
	PORTER_LIB=$(CURDIR)/$(LIB_DIR)/libporter.so python3 -m pip wheel --no-deps -w .build/wheels ./bindings/python
