# duckportal — every entry point a developer, CI or an operator needs.
# `make run` and `make test` work on a fresh clone: each installs what it needs first.

PORTAL ?= data/portal
PORT ?= 8080
HOST ?= 127.0.0.1
NODE := node
BIN := node_modules/.bin
PARSER := dist/src/odsql/generated/parser.cjs
SOURCES := $(shell find src test bench -name '*.ts' 2>/dev/null)

.PHONY: install build grammar data run test check lint typecheck unit bench clean

install: node_modules/.installed

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

grammar: $(PARSER)

$(PARSER): grammars/odsql.jison node_modules/.installed
	mkdir -p $(dir $@)
	$(BIN)/jison $< -m commonjs -o $@

build: dist/.built

dist/.built: $(SOURCES) tsconfig.json $(PARSER) node_modules/.installed
	$(BIN)/tsc -p tsconfig.json
	touch $@

data: $(PORTAL)/.built

$(PORTAL)/.built: dist/.built
	$(NODE) dist/src/cli.js sample --portal $(PORTAL)
	touch $@

run: build data
	$(NODE) dist/src/cli.js serve --portal $(PORTAL) --port $(PORT) --host $(HOST)

lint: install
	$(BIN)/eslint .
	$(BIN)/prettier --check .

typecheck: install grammar
	$(BIN)/tsc -p tsconfig.json --noEmit

unit: build data
	$(BIN)/mocha

check: lint typecheck unit

test: check

bench: build data
	$(NODE) dist/bench/run.js --portal $(PORTAL)

clean:
	rm -rf dist $(PORTAL) data/bench
