# lbplus: `make run` boots the emulated board; `make test` runs every test.
# Both install what a fresh Debian machine lacks (Go modules, Debian tools
# the tests cross-check against).

GO      ?= go
BIN     := bin/lbplus
DEBS    := pasmo z80dasm z80asm sigrok-cli cpmtools
GOFLAGS ?=

.PHONY: all build run test test-long deps debs bench fuzz clean

all: build

# Debian packages used by tests (pasmo and z80dasm cross-check the assembler,
# sigrok-cli reads the VCD traces). Installed only when missing.
debs:
	@missing=""; for p in $(DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO=sudo; fi; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

deps:
	@command -v $(GO) >/dev/null || { echo "Go is required: install Go 1.22 or newer"; exit 1; }
	$(GO) mod download

build: deps
	$(GO) build -o $(BIN) ./cmd/lbplus

run: build
	./$(BIN) run

test: deps debs
	$(GO) vet ./...
	$(GO) test -timeout 14m ./...

# The full ZEXALL/ZEXDOC runs and other long tests (skipped by -short).
test-long: deps debs
	$(GO) test -timeout 80m -run 'Zex|Long' ./...

bench: build
	./$(BIN) bench seed

clean:
	rm -rf bin
