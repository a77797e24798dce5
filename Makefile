# lbplus: `make run` boots the emulated board; `make test` runs every test.
# Both install what a fresh Debian machine lacks (Go modules, Debian tools
# the tests cross-check against).

GO      ?= go
BIN     := bin/lbplus
DEBS    := pasmo z80dasm z80asm sigrok-cli cpmtools libdsk-utils lrzsz \
           xvfb imagemagick pkg-config libx11-dev libxrandr-dev libxcursor-dev \
           libxinerama-dev libxi-dev libxxf86vm-dev libgl1-mesa-dev libasound2-dev
GOFLAGS ?=

.PHONY: all build run test test-zex test-long goversion deps debs bench params-check pgo fuzz clean

all: build

# Debian packages used by tests (pasmo and z80dasm cross-check the assembler,
# sigrok-cli reads the VCD traces, lrzsz's sx and rx move files to and
# from XFER.COM over the serial port, xvfb and imagemagick run and compare the
# debugger window's screenshots, the -dev packages build ebiten). Installed
# only when missing.
debs:
	@missing=""; for p in $(DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages the build and tests need:$$missing"; \
		if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO=sudo; fi; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

# The oldest Go that builds lbplus (go.mod's go directive; gonum/plot needs
# it too). Debian 12's golang-go is 1.19: too old, and too old to fetch a
# newer toolchain itself. Go 1.21 or newer fetches go$(GO_MIN) through the
# module proxy by itself (GOTOOLCHAIN=auto, the default).
GO_MIN  := 1.24

goversion:
	@command -v $(GO) >/dev/null || { \
		echo "lbplus needs Go $(GO_MIN) or newer, and there is no '$(GO)' on PATH."; \
		echo "Install it from https://go.dev/dl/ (Debian 12's golang-go is 1.19, too old)."; exit 1; }
	@echo "checking the Go version (Go 1.21 or newer downloads go$(GO_MIN) here if it is older)"
	@v=$$($(GO) env GOVERSION 2>&1 | sed -n 's/^go\([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p' | tail -1); \
	maj=$${v%%.*}; min=$${v#*.}; want=$(GO_MIN); wmaj=$${want%%.*}; wmin=$${want#*.}; \
	if [ -z "$$v" ] || [ "$$maj" -lt "$$wmaj" ] || { [ "$$maj" -eq "$$wmaj" ] && [ "$$min" -lt "$$wmin" ]; }; then \
		echo "lbplus needs Go $(GO_MIN) or newer; '$(GO)' is $$($(GO) version 2>&1 | head -1)."; \
		echo "Install Go from https://go.dev/dl/, or with Go 1.21+ allow it to fetch go$(GO_MIN): GOTOOLCHAIN=auto make ..."; \
		exit 1; \
	fi; echo "using Go $$v"

deps: goversion
	@echo "downloading the Go modules lbplus uses (once; about 30 MB)"
	@$(GO) mod download

# bin/lbplus-window is the same program with the debugger window linked
# (ebiten needs a display from the moment a program that links it starts,
# so lbplus itself does not); lbplus debug hands over to it.
build: deps debs
	@echo "building $(BIN) and $(BIN)-window (the first build compiles every dependency: a few minutes)"
	@$(GO) build -buildvcs=auto -o $(BIN) ./cmd/lbplus
	@$(GO) build -buildvcs=auto -tags window -o $(BIN)-window ./cmd/lbplus

run: build
	@echo "starting $(BIN) run (Ctrl-] quits; Ctrl-\\ opens the emulator's prompt)"
	./$(BIN) run

test: deps debs
	@echo "go vet: static checks"
	@$(GO) vet ./...
	@echo "go test: every package (builds first; up to 14 minutes on a small machine)"
	$(GO) test -timeout 14m ./...
	@echo "the debugger window's tests under Xvfb, and lbplus-window's debug commands"
	xvfb-run -a -s '-screen 0 1920x1080x24' $(GO) test -p 1 -tags window ./debugger/window
	xvfb-run -a -s '-screen 0 1920x1080x24' $(GO) test -p 1 -tags window -run 'Debug|Window|Script' ./cmd/lbplus
	@echo "ZEXDOC and ZEXALL: the long instruction-set tests"
	$(MAKE) --no-print-directory test-zex

# ZEXDOC and ZEXALL on the bare CPU (z80host's TestZexdoc/TestZexall
# through Run's general path, TestZexallFlat/TestZexdocPaged through its
# no-Bus loop on flat memory and on pages) and
# ZEXDOC under our CP/M on the emulated board at 4 MHz (roms/cpmbios's
# TestZexdocUnderCPM); they skip unless LBPLUS_ZEX=1. Minutes of CPU each,
# so they run in a go test invocation of their own with a timeout sized for
# a loaded 2-core machine, and never count against the per-package timeout
# above.
test-zex: deps
	LBPLUS_ZEX=1 $(GO) test -timeout 60m -run '^TestZex(doc|all|allFlat|docPaged|docUnderCPM)$$' ./...

# Only the long tests: every ZEX run (also ZEXALL under CP/M on the board
# and both on the Go BIOS of roms/cpm/cpmtest) and others named Long.
test-long: deps debs
	LBPLUS_ZEX=1 $(GO) test -timeout 80m -run 'Zex|Long' ./...

bench: build
	./$(BIN) bench seed

# The windows of bench params (docs/PARAMETERS.md) as JSON, compared byte
# for byte with bench/testdata/params_windows.json: a change that only makes
# the search or the emulator cheaper must leave every window, limiting
# check and reason as they are; a change to a model rewrites the file (and
# the table in docs/PARAMETERS.md) on purpose. Minutes of CPU.
params-check: build
	./$(BIN) bench params --json -q > bin/params_windows.json
	diff -u bench/testdata/params_windows.json bin/params_windows.json && echo "bench params: the windows are unchanged"

# The profile every build of cmd/lbplus is optimised with (Go's
# profile-guided optimisation picks up cmd/lbplus/default.pgo by itself):
# the busy and the idle machine, written anew (docs/PERFORMANCE.md).
pgo:
	$(GO) run ./cmd/pgoprofile cmd/lbplus/default.pgo

# A few minutes of coverage-guided fuzzing per target; crashers land in
# testdata/fuzz and become regression inputs. Go spends up to
# -fuzzminimizetime (60 s by default) shrinking each new interesting input,
# counting no executions meanwhile; FUZZMIN keeps those pauses short.
FUZZTIME ?= 60s
FUZZMIN  ?= 10s
fuzz: deps
	$(GO) test ./asm -run XXX -fuzz FuzzAssemble -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./asm -run XXX -fuzz FuzzExpr -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./scsi -run XXX -fuzz FuzzTargetBus -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./ncr5380 -run XXX -fuzz FuzzChip -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./devices/acb4000 -run XXX -fuzz FuzzCDB -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./devices/mcd403 -run XXX -fuzz FuzzCDB -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./devices/wd1772 -run XXX -fuzz FuzzFDC -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./devices/image -run XXX -fuzz FuzzSidecar -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./devices/fdimage -run XXX -fuzz FuzzIMD -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./devices/fdimage -run XXX -fuzz FuzzTD0 -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./emu -run XXX -fuzz FuzzLoadState -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./emu -run XXX -fuzz FuzzMachineFile -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)

clean:
	rm -rf bin
