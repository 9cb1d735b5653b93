# Porter: `make test` and `make demo` work on a fresh Debian machine with the Swift toolchain.
SWIFT ?= swift
DEBS := libbson-dev libjson-c-dev libsqlite3-dev
PKGCONF := libbson-1.0 json-c sqlite3
N ?= 1000000
DEMO_DIR ?= .build/demo

.PHONY: deps build release test demo bench clean

# Install the Debian packages Porter links against, when any is missing.
deps:
	@missing=""; for p in $(PKGCONF); do pkg-config --exists $$p 2>/dev/null || missing=yes; done; \
	command -v pkg-config >/dev/null 2>&1 || missing=yes; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = "0" ]; then \
	    echo "Installing $(DEBS) pkg-config"; \
	    (apt-get install -y $(DEBS) pkg-config || (apt-get update && apt-get install -y $(DEBS) pkg-config)) >/dev/null; \
	  else \
	    echo "Missing C libraries: run 'sudo apt-get install -y $(DEBS) pkg-config' and retry." >&2; exit 1; \
	  fi; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product porter

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

demo: release
	@bash Fixtures/demo.sh "$$($(SWIFT) build -c release --show-bin-path)/porter" "$(DEMO_DIR)"

# Release build, seeded datasets of N objects per shape, each operation in its own process.
# pymongo's comparison runs when `python3 -c "import bson"` works (pip install pymongo).
bench: deps
	$(SWIFT) build -c release --product porter --product porter-bench
	"$$($(SWIFT) build -c release --show-bin-path)/porter-bench" --objects $(N) --work .build/bench --json bench-results.json

clean:
	rm -rf .build
