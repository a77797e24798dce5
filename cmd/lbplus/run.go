package main

import (
	"bytes"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lbplus/lbplus/cmd/lbplus/internal/hostport"
	"github.com/lbplus/lbplus/debugger"
	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/roms/monitor"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// runSlice is how much simulated time the board runs between looks at the
// console: short enough that typing feels immediate, long enough that the
// loop costs nothing next to the emulation.
const runSlice = 10 * sched.Millisecond

// runOptions are the flags of `lbplus run`, which `lbplus debug` takes too:
// the machine's (here), its floppies' (floppy.go), the bus traces'
// (run_trace.go), the host's serial port and printer (hostio.go) and the
// debugger's (debug.go).
type runOptions struct {
	machine   string
	rom       string
	speed     string
	bootSpeed string // max: run fast until the console waits for a key
	console   string
	waitOnDRQ bool
	scsiID    int
	scsi      []string // ID=TYPE[,OPTION...]:FILE[,FILE]
	hd0, lun1 string   // shorthands of --scsi for one disk (scsiflags.go)
	tape      string   // shorthand of --scsi for one tape (scsiflags.go)
	saveState string   // the escape prompt's "save" writes the machine here
	loadState string   // start from this saved state instead of power-on
	waitFor   string   // hold typed input until the console has printed this
	fd        [4]string
	trace     traceOptions
	host      hostOptions
	debug     debugOptions
}

const runLong = `Boot the emulated Little Board/PLUS. DART channel A is the console: the
terminal in raw mode (Ctrl-] quits) or, with --console tcp:PORT, a telnet
client. --speed realtime paces the board to its real 4 MHz; max runs as fast
as the host can.

The machine is described by --machine FILE (a TOML machine file: ROM,
jumpers, SCSI devices by ID; see docs/machine.toml) and the flags, which
override the file. ` + scsiHelp + `

With no machine file, no SCSI device and no floppy, run boots CP/M from the
default system disk, $XDG_DATA_HOME/lbplus/cpm-hd0.img (or
~/.local/share/lbplus/cpm-hd0.img), made on first use (docs/CPM.md).

Save states (docs/STATE.md): with --save-state FILE, typing "save" at the
escape prompt (Ctrl-\) writes the whole machine to FILE and stops lbplus,
leaving the images as they are at that instant. --load-state FILE, with the
same machine (ROM, jumpers, devices by ID) and those images, resumes there.`

func newRunCmd() *cobra.Command {
	cmd, _ := runCommand()
	return cmd
}

// runCommand is `lbplus run` and the options its flags set.
func runCommand() (*cobra.Command, *runOptions) {
	o := &runOptions{}
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Boot the board (CP/M from the default system disk when nothing is attached)",
		Long:  runLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.debug.on || o.debug.text || o.debug.script != "" {
				return debugBoard(cmd, cmd, o)
			}
			return runBoard(cmd, o)
		},
	}
	addRunFlags(cmd.Flags(), o)
	return cmd, o
}

// addRunFlags adds run's flags, which debug parses too, to f.
func addRunFlags(f *pflag.FlagSet, o *runOptions) {
	f.StringVar(&o.machine, "machine", "", "TOML machine `FILE` (ROM, jumpers, SCSI devices); flags override it")
	addSCSIFlags(f, o)
	f.StringVar(&o.rom, "rom", "", "ROM image (4, 8, 16 or 32 KB) instead of the built-in monitor")
	f.StringVar(&o.speed, "speed", "realtime", "realtime (4 MHz) or max")
	f.StringVar(&o.bootSpeed, "boot-speed", "max", "with --speed realtime: max runs the boot as fast as the host can until the console waits for a key; realtime paces it too")
	f.StringVar(&o.console, "console", "stdio", "stdio, tcp:PORT (this host only) or tcp:HOST:PORT (e.g. 0.0.0.0 for the network: no password)")
	f.BoolVar(&o.waitOnDRQ, "wait-on-drq", false, "hypothesis B: port 28 holds WAIT until the 5380 raises DRQ")
	f.IntVar(&o.scsiID, "scsi-id", 7, "initiator SCSI ID on the J9 jumpers (0-7)")
	f.StringVar(&o.saveState, "save-state", "", "\"save\" at the escape prompt (Ctrl-\\) writes the machine to `FILE` and quits")
	f.StringVar(&o.loadState, "load-state", "", "resume the machine saved in `FILE` (same machine flags and images)")
	f.StringVar(&o.waitFor, "wait-for", "", "hold typed or piped input until the console has printed `TEXT` (e.g. A>), as a person waits for the prompt; a key during the boot would enter the monitor")
	addFloppyFlags(f, o)
	addTraceFlags(f, &o.trace)
	addHostIOFlags(f, &o.host)
	addDebugFlags(f, &o.debug)
}

// runSession is one machine that run or debug builds from the options:
// what the parts of the command share while it lives.
type runSession struct {
	o *runOptions
	// inputs are the machine's images, ROM and machine file
	// (checkRunFiles): a state saved at the escape prompt may not
	// overwrite any of them.
	inputs []string
	// atExit finishes what attaching started (flush a trace file) when
	// the command ends, however it ends: in order, the first error is
	// reported.
	atExit []func() error
	// menu is the escape prompt's commands.
	menu []menuCommand
	// debuggers is the debugger of each board the escape prompt has
	// used, made on first use: it records from then on.
	debuggers map[*emu.Board]*debugger.Text
}

func newRunSession(o *runOptions) *runSession {
	s := &runSession{o: o, debuggers: map[*emu.Board]*debugger.Text{}}
	s.menu = s.menuCommands()
	return s
}

// newBoard builds the machine cfg describes and attaches the bus traces
// (run and debug build their boards alike).
func (s *runSession) newBoard(cfg emu.Config) (*emu.Board, error) {
	board, err := emu.New(cfg)
	if err != nil {
		return nil, err
	}
	if err := s.attachBusTrace(board); err != nil {
		board.Close()
		return nil, err
	}
	return board, nil
}

// exitHooks runs what atExit holds (a trace to finish, ...) as a command
// that built a board ends; the first error is *err unless there was one
// already.
func (s *runSession) exitHooks(err *error) {
	for _, f := range s.atExit {
		if e := f(); e != nil && *err == nil {
			*err = e
		}
	}
	s.atExit = nil
}

func runBoard(cmd *cobra.Command, o *runOptions) (err error) {
	s := newRunSession(o)
	defer s.exitHooks(&err)
	realtime := true
	switch o.speed {
	case "realtime":
	case "max":
		realtime = false
	default:
		return fmt.Errorf("--speed %q: want realtime or max", o.speed)
	}
	var out []byte
	cfg, err := s.config(cmd)
	if err != nil {
		return err
	}
	cfg.ConsoleOut = func(_ sched.Time, b byte) { out = append(out, b) }
	host, err := openHostIO(&cfg, os.Stderr) // DART B, the printer: hostio.go
	if err != nil {
		return err
	}
	defer host.Close()
	board, err := s.newBoard(cfg)
	if err != nil {
		return err
	}
	defer board.Close()
	if o.loadState != "" {
		if err := loadStateFile(board, o.loadState); err != nil {
			return err
		}
	} else if msg := bootWarning(board, cfg); msg != "" {
		fmt.Fprint(os.Stderr, msg)
	}

	port, err := hostport.Open(cfg.Console)
	if err != nil {
		return err
	}
	defer port.Close()
	if t, ok := port.(*hostport.TCP); ok {
		fmt.Fprintf(os.Stderr, "lbplus: console on telnet %s (Ctrl-C here quits)\n", t.Addr())
		if t.Exposed() {
			fmt.Fprintf(os.Stderr, "lbplus: warning: the console listens on %s without a password: anyone who can reach this host can use the board\n", t.Addr())
		}
	} else {
		fmt.Fprint(os.Stderr, "lbplus: console on this terminal; Ctrl-] quits\r\n")
	}
	var menu <-chan string // the escape prompt's lines (hostport.MenuKey)
	if m, ok := port.(hostport.Menu); ok {
		menu = m.Commands()
	}
	var ended <-chan struct{} // piped input has ended (hostport.Ender)
	if e, ok := port.(hostport.Ender); ok {
		ended = e.Ended()
	}
	var settle pipeSettle
	gate := newPromptGate(o.waitFor, board.Now())
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sig)

	// The only place host time meets simulated time: realtime mode sleeps
	// so that simulated time never runs ahead of the wall clock, once the
	// fast boot (run_boot.go) is over.
	boot, err := newBootPhase(o.bootSpeed, realtime && o.loadState == "", board.Now())
	if err != nil {
		return err
	}
	start := time.Now()
	simStart := board.Now()
	for {
		select {
		case <-port.Done():
			return nil
		case s := <-sig:
			port.Close()
			return fmt.Errorf("stopped by %v", s)
		case line := <-menu:
			if f := strings.Fields(line); len(f) > 0 && f[0] == "save" {
				msg, done := s.runSave(board, f[1:])
				port.Write([]byte(msg))
				if done {
					port.Close()
					return nil
				}
				continue
			}
			port.Write([]byte(s.menuCommand(board, line)))
		case <-ended:
			settle.ended, ended = true, nil
		default:
		}
		typed := gate.feed(board, port.Input(), board.Now())
		if typed {
			settle.typed()
		}
		if err := host.pump(board); err != nil {
			return err
		}
		if err := board.RunFor(runSlice); err != nil {
			return err
		}
		if err := host.pump(board); err != nil {
			return err
		}
		if len(out) > 0 {
			gate.saw(out)
			port.Write(out)
			out = out[:0]
			settle.printed(board.Now())
		}
		held := gate.waiting() || len(port.Input()) > 0
		if err := gate.expired(settle.ended && held, board.Now()); err != nil {
			return err
		}
		if settle.done(board.Now(), board.LastBusyIO(), board.ConsoleQueued(), len(port.Input())+len(gate.pending)) {
			return nil
		}
		if boot.on {
			if boot.running(board.Now(), board.LastBusyIO(), typed) {
				continue
			}
			start, simStart = time.Now(), board.Now() // real speed from here
		}
		if realtime {
			ahead := time.Duration(board.Now()-simStart)/time.Duration(sched.Nanosecond) - time.Since(start)
			if ahead > 0 {
				time.Sleep(ahead)
			}
		}
	}
}

// consoleBacklog bounds the typed bytes handed to the board ahead of the
// DART: about a quarter of a second of typing at 9600 baud.
const consoleBacklog = 256

// feedConsole hands typed input to the board only while fewer than
// consoleBacklog bytes wait for the DART, so a flood (a paste, a fast
// client) waits in the console's channel and the socket or pipe behind it,
// not in memory here. It reports whether it took anything.
func feedConsole(board *emu.Board, in <-chan []byte) bool {
	took := false
	for board.ConsoleQueued() < consoleBacklog {
		select {
		case p := <-in:
			board.ConsoleInput(p)
			took = true
		default:
			return took
		}
	}
	return took
}

// promptGate holds typed input back until the console has printed a
// text (--wait-for), as a person at the terminal waits for the prompt
// before typing each line: the boot ROM takes any key during the boot as
// a request for the monitor, and CP/M's DIR or TYPE stop at a key typed
// while they print. It lets one line through (up to its CR or LF) each
// time the text appears.
type promptGate struct {
	want    []byte
	seen    bool
	tail    []byte // the last len(want)-1 bytes printed, for a match across writes
	pending []byte // input taken from the console, not yet given to the board
	since   sched.Time
}

// promptWait bounds how long, in simulated time, input that has ended
// waits for the text before run gives up with an error instead of
// running for ever (a boot to A> takes about 20 s with no floppy drive).
const promptWait = 120 * sched.Second

func newPromptGate(want string, now sched.Time) *promptGate {
	return &promptGate{want: []byte(want), since: now}
}

// feed hands typed input to the board: all of it (at the DART's pace, see
// feedConsole) without a text to wait for, else the next line once the
// text has appeared, within the same backlog. It reports whether it gave
// anything.
func (g *promptGate) feed(board *emu.Board, in <-chan []byte, now sched.Time) bool {
	if len(g.want) == 0 {
		return feedConsole(board, in)
	}
	room := consoleBacklog - board.ConsoleQueued()
	if !g.seen || room <= 0 {
		return false
	}
	if len(g.pending) == 0 {
		select {
		case p := <-in:
			g.pending = p
		default:
			return false
		}
	}
	n := bytes.IndexAny(g.pending, "\r\n") + 1
	if n == 0 || n > room {
		n = min(len(g.pending), room) // the DART's pace, as feedConsole keeps it
	} else {
		g.seen, g.since = false, now // the line is typed: wait for the text again
	}
	board.ConsoleInput(g.pending[:n])
	g.pending = g.pending[n:]
	return true
}

// waiting reports whether input is held back.
func (g *promptGate) waiting() bool { return len(g.pending) > 0 }

// saw looks for the text in what the console printed.
func (g *promptGate) saw(out []byte) {
	if len(g.want) == 0 || g.seen {
		return
	}
	buf := append(g.tail, out...)
	if bytes.Contains(buf, g.want) {
		g.seen, g.tail = true, g.tail[:0]
		return
	}
	if keep := len(g.want) - 1; len(buf) > keep {
		buf = buf[len(buf)-keep:]
	}
	g.tail = append(g.tail[:0], buf...)
}

// expired reports an error when input is still held back promptWait after
// the last line went in (or the start) and the text has not appeared.
func (g *promptGate) expired(held bool, now sched.Time) error {
	if len(g.want) == 0 || g.seen || !held || now-g.since < promptWait {
		return nil
	}
	return fmt.Errorf("--wait-for %q: the console did not print it within %d s of board time", g.want, promptWait/sched.Second)
}

// pipeQuiet is how long, in simulated time, the board must print nothing
// after the last piped byte reached the DART before `lbplus run` ends on
// piped input: the program has answered and waits for more [A].
const pipeQuiet = 2 * sched.Second

// pipeSettle decides when a run fed from a pipe is over: the input has
// ended, every byte has gone to the DART, and the board has been quiet for
// pipeQuiet since (or since the input ended): it printed nothing and the
// program touched no port but the console's (emu.Board.LastBusyIO), so a
// command still working on its disks (SUBMIT writing $$$.SUB, then a warm
// boot: over 2 s on the ACB-4000) is waited for.
type pipeSettle struct {
	ended  bool
	pend   bool // input taken since the last look
	lastAt sched.Time
	valid  bool
}

func (p *pipeSettle) typed() { p.pend = true }

func (p *pipeSettle) printed(now sched.Time) { p.lastAt, p.valid = now, true }

func (p *pipeSettle) done(now, busyIO sched.Time, queued, waiting int) bool {
	if !p.ended {
		return false
	}
	if queued > 0 || waiting > 0 || p.pend || !p.valid {
		p.pend = false
		p.lastAt, p.valid = now, true
		return false
	}
	return now-max(p.lastAt, busyIO) >= pipeQuiet
}

// config is the machine `lbplus run` builds: the --machine file (or the
// defaults), then the flags given on the command line over it, then the
// built-in monitor if nothing named a ROM.
func (s *runSession) config(cmd *cobra.Command) (emu.Config, error) {
	o := s.o
	cfg := emu.DefaultConfig(nil)
	if o.machine != "" {
		var err error
		if cfg, err = emu.ReadMachineFile(o.machine); err != nil {
			return cfg, err
		}
	}
	// Without a machine file every flag applies (its default is the
	// default machine's); with one, only the flags given.
	given := func(name string) bool { return o.machine == "" || cmd.Flags().Changed(name) }
	if given("rom") && o.rom != "" {
		rom, err := emu.ReadROMFile(o.rom)
		if err != nil {
			return cfg, err
		}
		cfg.ROM, cfg.ROMName = rom, o.rom
	}
	if given("scsi-id") {
		cfg.SCSIID = o.scsiID
	}
	if given("wait-on-drq") {
		cfg.WaitOnDRQ = o.waitOnDRQ
	}
	if given("console") || cfg.Console == "" {
		cfg.Console = o.console
	}
	specs, err := scsiFlagSpecs(o)
	if err != nil {
		return cfg, err
	}
	cfg.SCSI = append(cfg.SCSI, specs...)
	if o.machine == "" {
		cfg.Floppies = emu.DefaultFloppies()
	}
	if err := applyFloppyFlags(&cfg, o.fd); err != nil {
		return cfg, err
	}
	noteTeledisk(cmd.ErrOrStderr(), cfg)
	// Bad input is refused before anything is made on disk (the default
	// system disk below, a trace file).
	if err := hostport.Check(cfg.Console); err != nil {
		return cfg, err
	}
	if err := s.checkRunFiles(cfg); err != nil {
		return cfg, err
	}
	if err := s.hostIOFlags(cmd, &cfg); err != nil {
		return cfg, err
	}
	if o.machine == "" && !cfg.HasDisk() {
		// No disk attached (a tape alone is fine: BACKUP and RESTORE on
		// the default disk want one): boot CP/M from the default system
		// disk (our ROM or a user's Ampro ROM: its loader needs only
		// READTRK). A tape given is checked first: bad input makes nothing.
		for _, d := range cfg.SCSI {
			if err := emu.CheckSCSI(d); err != nil {
				return cfg, err
			}
		}
		for _, f := range cfg.Floppies {
			if err := checkFloppy(f); err != nil {
				return cfg, err
			}
		}
		path, err := defaultSystemDisk(cmd.ErrOrStderr())
		if err != nil {
			return cfg, err
		}
		cfg.SCSI = append(cfg.SCSI, emu.DefaultDisk(path))
	}
	if cfg.ROM == nil {
		rom, err := monitor.Image()
		if err != nil {
			return cfg, err
		}
		cfg.ROM, cfg.ROMName = rom, "built-in monitor"
	}
	return cfg, cfg.Validate()
}

// runSave is the escape prompt's "save [FILE]": the machine is between
// runs here (never inside an instruction), so its state is exact. lbplus
// stops after saving: running on would change the images the state refers
// to. done is false when nothing was saved.
func (s *runSession) runSave(b *emu.Board, args []string) (msg string, done bool) {
	path := s.o.saveState
	if len(args) == 1 {
		path = args[0]
	}
	if path == "" || len(args) > 1 {
		return "usage: save [FILE] (or start lbplus with --save-state FILE)\r\n", false
	}
	if err := checkOutputs(s.inputs, outputFile{"save", path}); err != nil {
		return fmt.Sprintf("%v\r\n", err), false
	}
	if err := saveStateFile(b, path); err != nil {
		return fmt.Sprintf("save: %v\r\n", err), false
	}
	return fmt.Sprintf("machine saved to %s at %v; resume with --load-state %s\r\n", path, b.Now(), path), true
}

// saveStateFile writes the state durably (writeHostFile), so a crash never
// leaves half a state; a state already there is replaced.
func saveStateFile(b *emu.Board, path string) error {
	return writeHostFile(path, true, b.SaveState)
}

func loadStateFile(b *emu.Board, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return b.LoadState(f, path)
}

// checkFloppy opens a floppy's image read-only and closes it: bad input
// is refused, with the error the machine would give, before the default
// system disk is made.
func checkFloppy(f emu.Floppy) error {
	if f.Image == "" {
		return nil
	}
	im, err := fdimage.Open(f.Image, fdimage.Options{Format: f.Format, ReadOnly: true})
	if err != nil {
		return fmt.Errorf("floppy drive %d: %w", f.Drive, err)
	}
	return im.Close()
}

// bootWarning says in one line why the boot ROM will not boot from SCSI
// (docs/BOOT.md), or "": when no floppy image is given and the boot
// target (ID 0 for a board at ID 7, else 7) is a disk whose block 0 is not
// a boot sector. The board still runs: its monitor is there.
func bootWarning(b *emu.Board, cfg emu.Config) string {
	for _, f := range cfg.Floppies {
		if f.Image != "" {
			return ""
		}
	}
	id := 0
	if cfg.SCSIID != 7 {
		id = 7
	}
	m, ok := b.SCSIDevice(id).(scsidev.Medium)
	if !ok {
		return ""
	}
	name := fmt.Sprintf("SCSI ID %d", id)
	for _, s := range cfg.SCSI {
		if s.ID == id && len(s.Images) > 0 {
			name += " (" + s.Images[0] + ")"
		}
	}
	block := make([]byte, 512)
	if err := m.PeekBlock(0, 0, block); err != nil {
		return fmt.Sprintf("lbplus: %s: block 0 cannot be read: %v\r\n", name, err)
	}
	if monitor.Bootable(block) {
		return ""
	}
	return fmt.Sprintf("lbplus: %s: block 0 is not a boot block (it starts with %02Xh, the boot ROM wants 21h or 3Eh): "+
		"the board will not boot from it; lbplus disk create --system or sysgen makes one\r\n", name, block[0])
}
