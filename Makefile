# duckportal — every entry point a developer, CI or an operator needs.
# `make run` and `make test` work on a fresh clone: each installs what it needs first.

PORTAL ?= data/portal
PORT ?= 8080
HOST ?= 127.0.0.1
NODE := node
BIN := node_modules/.bin
PARSER := dist/src/odsql/generated/parser.cjs
SOURCES := $(shell find src test bench -name '*.ts' 2>/dev/null)
WEB_SOURCES := $(shell find web/src -type f 2>/dev/null)
WEB_MANIFEST := dist/web/manifest.json

.PHONY: install build grammar data run test test-node test-deps bench-deps check lint typecheck unit bench screenshots clean architecture

install: node_modules/.installed

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

grammar: $(PARSER)

$(PARSER): grammars/odsql.jison node_modules/.installed
	mkdir -p $(dir $@)
	$(BIN)/jison $< -m commonjs -o $@

build: dist/.built $(WEB_MANIFEST)

# tsc never deletes: a compiled file whose source moved or went is removed first, so that mocha
# never runs the old copy of a moved test.
dist/.built: $(SOURCES) tsconfig.json $(PARSER) node_modules/.installed
	@[ ! -d dist ] || (cd dist && find src test bench -name '*.js' 2>/dev/null | while read -r f; do \
	  [ -e "../$${f%.js}.ts" ] || rm -f "$$f" "$$f.map"; done)
	$(BIN)/tsc -p tsconfig.json
	touch $@

# The web pages' client code (web/): bundled by esbuild into dist/web with its manifest.
$(WEB_MANIFEST): $(WEB_SOURCES) web/build.mjs node_modules/.installed
	$(NODE) web/build.mjs

data: $(PORTAL)/.built

$(PORTAL)/.built: dist/.built
	bin/duckportal.cjs sample --portal $(PORTAL)
	touch $@

run: build data
	bin/duckportal.cjs serve --portal $(PORTAL) --port $(PORT) --host $(HOST)

# No import cycle in src/, type-only imports included (madge exits 1 and lists each cycle).
lint: install
	$(BIN)/eslint .
	$(BIN)/prettier --check .
	$(BIN)/madge --circular --extensions ts src

typecheck: install grammar
	$(BIN)/tsc -p tsconfig.json --noEmit
	$(BIN)/tsc -p web/tsconfig.json

# The export tests read files back with GDAL (ogrinfo), raptor (rapper) and Python's rdflib and
# openpyxl, the v2.0 client test runs a Python client on requests, the page tests drive Debian's
# chromium (puppeteer-core), the deployment tests start redis-server and haproxy, the ClickHouse
# client's tests a cluster of clickhouse-server:
# installed from Debian's packages when missing (as root, or through sudo); without either, stop with the command.
# TEST_TOOLS are commands, TEST_PYTHON_MODULES modules of Debian's own python3 (/usr/bin/python3:
# Debian's modules are not on another python's path).
TEST_TOOLS := ogrinfo:gdal-bin rapper:raptor2-utils chromium:chromium redis-server:redis-server haproxy:haproxy curl:curl clickhouse-server:clickhouse-server
TEST_PYTHON_MODULES := rdflib:python3-rdflib openpyxl:python3-openpyxl requests:python3-requests

test-deps:
	@missing=""; for tool in $(TEST_TOOLS); do \
	  command -v $${tool%%:*} >/dev/null 2>&1 || missing="$$missing $${tool#*:}"; \
	done; \
	for module in $(TEST_PYTHON_MODULES); do \
	  /usr/bin/python3 -c "import $${module%%:*}" >/dev/null 2>&1 || missing="$$missing $${module#*:}"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = "0" ]; then sudo=""; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; \
	else echo "The tests need:$$missing (run: sudo apt-get install -y$$missing)"; exit 1; fi; \
	$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing

unit: build data test-deps
	UV_THREADPOOL_SIZE=64 $(BIN)/mocha

check: lint typecheck unit

test: check

# The whole suite again on each Node release line in NODE_LINES (Debian's Node 20 runs `make test`),
# each taken from the npm registry's `node` package into .tmp/node<line> on first use.
NODE_LINES ?= 22 24
test-node: build data test-deps
	@for line in $(NODE_LINES); do \
	  dir=.tmp/node$$line; \
	  [ -x $$dir/node_modules/.bin/node ] || npm install --no-save --no-audit --no-fund --prefix $$dir node@$$line || exit 1; \
	  echo "== Node $$($$dir/node_modules/.bin/node --version)"; \
	  PATH="$(CURDIR)/$$dir/node_modules/.bin:$$PATH" $(MAKE) --no-print-directory check || exit 1; \
	done

# The README's pictures of the pages (docs/screenshots), taken in the test browser.
screenshots: build data test-deps
	UV_THREADPOOL_SIZE=64 $(NODE) dist/test/web/screenshots.js

# docs/architecture.md's picture of the rooms and their imports (the structure test checks it).
architecture: build
	$(NODE) dist/test/structure/draw-layers.js

# The bench's own baselines: nginx (the downloads section's static file server) and curl.
BENCH_TOOLS := nginx:nginx curl:curl
bench-deps:
	@$(MAKE) --no-print-directory test-deps TEST_TOOLS="$(BENCH_TOOLS)" TEST_PYTHON_MODULES=

bench: build data bench-deps
	$(NODE) dist/bench/main.js --portal $(PORTAL) $(BENCH_FLAGS)

clean:
	rm -rf dist $(PORTAL) data/bench
