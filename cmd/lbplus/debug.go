package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/debugger"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/roms/backup"
	"github.com/lbplus/lbplus/roms/cpm"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/roms/diskbench"
	"github.com/lbplus/lbplus/roms/monitor"
	"github.com/lbplus/lbplus/roms/tapebench"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi/scsidev"
	"github.com/lbplus/lbplus/sysdisk"
)

// `lbplus debug` (or `lbplus run --debug`) builds the machine `lbplus run`
// would, from the same flags, and opens the debugger on it: the window, or
// with --text the text front-end on this terminal, or with --script FILE
// the commands of FILE, printed as they run.

// debugOptions are the debugger's flags on run (and debug).
type debugOptions struct {
	on     bool
	text   bool
	script string
	window bool // --script in the window
	syms   []string
	edges  int
	state  string
}

// defaultStateFile is where the debugger window's F3 saves the machine
// and F4 loads it when --state-file does not say.
const defaultStateFile = "lbplus-debug.state"

const debugLong = `Open the debugger on the machine lbplus run would build, with the same
flags (--rom, --machine, --scsi, --hd0, --tape, ...). Without --text or
--script it opens a window: registers, disassembly, memory, stack, the
5380 bit by bit, the SCSI bus, device panels, the console and a
logic-analyser timeline of the bus with decoded phases and commands
(F5 run/pause, F10 step over, F11 step into, Shift+F11 step out,
Ctrl+F11 one T-state, F9 breakpoint, F6 next phase, F7 next command, F8 next bus byte, Shift+F7
next WD1772 command, Shift+F8 next index pulse, F2 speed, Tab types on
the console; ':' opens a prompt for every text command). --text is the
same debugger as commands on this terminal (help lists them); --script
FILE runs FILE's commands and exits, or with --window runs them in the
window and keeps it open. The built-in ROM's symbols are loaded, and our CP/M's when the
default system disk boots; --sym adds symbol files written by lbplus asm
--sym, or a program of lbplus by name (cpm, backup, diskbench, tapebench).
docs/DEBUGGER.md has the details.`

// newDebugCmd is `lbplus debug`: run's flags, parsed by a run command of
// its own, and the debugger on the machine they describe.
func newDebugCmd() *cobra.Command {
	run, o := runCommand()
	return &cobra.Command{
		Use:                "debug [run flags] [--text | --script FILE] [--sym FILE]...",
		Short:              "Debug the board: window, or text with --text / --script",
		Long:               debugLong,
		DisableFlagParsing: true, // the flags are run's: parsed by run
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := run.ParseFlags(args); err != nil {
				if errors.Is(err, pflag.ErrHelp) {
					fmt.Fprintf(cmd.OutOrStdout(), "%s\n\nUsage:\n  lbplus %s\n\nFlags:\n%s", debugLong, cmd.Use, run.Flags().FlagUsagesWrapped(helpWidth))
					return nil
				}
				return err
			}
			if run.Flags().NArg() > 0 {
				return fmt.Errorf("debug: unexpected argument %q", run.Flags().Arg(0))
			}
			o.debug.on = true
			run.SetErr(cmd.ErrOrStderr())
			return debugBoard(run, cmd, o)
		},
	}
}

// addDebugFlags adds the debugger's flags to run's flags f.
func addDebugFlags(f *pflag.FlagSet, o *debugOptions) {
	f.BoolVar(&o.on, "debug", false, "open the debugger window on the machine (same as lbplus debug)")
	f.BoolVar(&o.text, "text", false, "debugger: text front-end on this terminal instead of the window")
	f.StringVar(&o.script, "script", "", "debugger: run the commands in `FILE`, print what they show, exit")
	f.BoolVar(&o.window, "window", false, "debugger: with --script, run the script in the window and keep it open")
	f.StringArrayVar(&o.syms, "sym", nil, "debugger: symbol `FILE` written by lbplus asm --sym, or a program of lbplus: cpm, backup, diskbench, tapebench (repeatable)")
	f.StringVar(&o.state, "state-file", defaultStateFile, "debugger window: where F3 saves the machine's state and F4 loads it")
	f.IntVar(&o.edges, "record-edges", debugger.DefaultEdges, "debugger: bus edges the signal recorder keeps (16 bytes each)")
}

// benchDebug are bench backup's debugger flags: --debug-script FILE runs
// the text debugger's commands on the backup run's board, --debug opens
// the window on it.
type benchDebug struct {
	script string
	window bool
}

func addBenchDebugFlags(f *pflag.FlagSet, o *benchDebug) {
	f.StringVar(&o.script, "debug-script", "", "run the debugger commands in `FILE` on the board before the run goes on to its end (lbplus debug --script)")
	f.BoolVar(&o.window, "debug", false, "open the debugger window on the board; the run goes on to its end when it is closed")
}

// debugMenuCommand is the console escape's "debug CMD": one debugger
// command on the running board (the machine waits meanwhile).
func (s *runSession) debugMenuCommand() menuCommand {
	return menuCommand{name: "debug", short: "g", usage: "debug COMMAND (debug help lists them)", run: s.menuDebug}
}

// maxSymbolFile bounds a --sym file: lbplus asm --sym writes one line of
// about 30 bytes per symbol, so 16 MB is far more than any Z80 program has.
const maxSymbolFile = 16 << 20

// checkSymbolFiles refuses, before the machine is built, a --sym that is
// neither one of lbplus's programs nor a regular file of bounded size (a
// named pipe would block, /dev/zero never end).
func checkSymbolFiles(names []string) error {
	for _, name := range names {
		if _, ok := programSymbols()[name]; ok {
			continue
		}
		if err := checkRegularInput(name); err != nil {
			return fmt.Errorf("--sym %w", err)
		}
		if st, err := os.Stat(name); err == nil && st.Size() > maxSymbolFile {
			return fmt.Errorf("--sym %s: %d bytes, more than %d: not a symbol file", name, st.Size(), maxSymbolFile)
		}
	}
	return nil
}

// checkBenchDebugScript refuses, before a bench run, a --debug-script
// that is not a regular file.
func checkBenchDebugScript(path string) error {
	if path == "" {
		return nil
	}
	if err := checkScriptFile(path); err != nil {
		return fmt.Errorf("--debug-script %w", err)
	}
	return nil
}

// maxScriptFile bounds a debugger script: a command a line, so 16 MB is
// far more than anyone types or generates.
const maxScriptFile = 16 << 20

// checkScriptFile refuses a script that is not a regular file of at most
// maxScriptFile bytes.
func checkScriptFile(path string) error {
	if err := checkRegularInput(path); err != nil {
		return err
	}
	if st, err := os.Stat(path); err == nil && st.Size() > maxScriptFile {
		return fmt.Errorf("%s: %d bytes, more than %d: not a debugger script", path, st.Size(), maxScriptFile)
	}
	return nil
}

// benchDebugHook returns, with --debug-script, what bench.Options.OnStart
// runs: the script's commands on a debugger of the backup run's board,
// printed to w with BACKUP's symbols; the harness then runs BACKUP to its
// end. A script error is printed and ends the script.
func benchDebugHook(w io.Writer, o benchDebug) func(*emu.Board) {
	if o.window {
		return func(b *emu.Board) {
			d := debugger.ForBoard(b, debugger.NewRecorder(debugger.DefaultEdges))
			defer d.Detach() // the run goes on to its end undebugged
			if err := loadProgramSymbols(d.Syms, "backup"); err != nil {
				fmt.Fprintln(w, "debugger:", err)
			}
			if err := openWindow(d, b, emu.Config{ROMName: "bench backup"}, defaultStateFile, o.script, new(func(byte))); err != nil {
				fmt.Fprintln(w, "debugger:", err)
			}
		}
	}
	path := o.script
	if path == "" {
		return nil
	}
	return func(b *emu.Board) {
		d := debugger.ForBoard(b, debugger.NewRecorder(0))
		defer d.Detach() // the run goes on to its end undebugged
		if err := loadProgramSymbols(d.Syms, "backup"); err != nil {
			fmt.Fprintln(w, "debugger:", err)
		}
		x := debugger.NewText(d, b, w)
		x.Echo = true
		f, err := os.Open(path)
		if err != nil {
			fmt.Fprintln(w, "debugger: --debug-script:", err)
			return
		}
		defer f.Close()
		if err := x.Run(f, "", true); err != nil {
			fmt.Fprintf(w, "debugger: %s: %v\n", path, err)
		}
	}
}

// menuDebug runs one debugger command on b for the escape prompt, with the
// board's debugger made on first use.
func (s *runSession) menuDebug(b *emu.Board, args []string) string {
	x := s.debuggers[b]
	if x == nil {
		d := debugger.ForBoard(b, debugger.NewRecorder(0))
		// The built-in ROM unless the flags named another one (a machine
		// file may).
		if s.o.rom == "" && s.o.machine == "" {
			if r, err := monitor.Result(); err == nil {
				d.Syms.AddResult(r)
			}
		}
		x = debugger.NewText(d, b, nil)
		s.debuggers[b] = x
	}
	var out bytes.Buffer
	x.Out = &out
	if err := x.Exec(strings.Join(args, " ")); err != nil {
		fmt.Fprintln(&out, "error:", err)
	}
	return strings.ReplaceAll(strings.TrimRight(out.String(), "\n"), "\n", "\r\n")
}

// programSymbols are the programs lbplus ships, whose symbols --sym NAME
// loads without a file.
func programSymbols() map[string]func(s *debugger.Symbols) error {
	return map[string]func(s *debugger.Symbols) error{
		"cpm": func(s *debugger.Symbols) error {
			for _, f := range []string{"ccp.asm", "bdos.asm"} {
				m, err := cpm.Symbols(f)
				if err != nil {
					return err
				}
				s.Add(m)
			}
			m, err := cpmbios.Symbols()
			s.Add(m)
			return err
		},
		"backup":    asmSymbols(backup.Build),
		"diskbench": asmSymbols(diskbench.Build),
		"tapebench": asmSymbols(tapebench.Build),
	}
}

func asmSymbols(build func() (*asm.Result, error)) func(s *debugger.Symbols) error {
	return func(s *debugger.Symbols) error {
		r, err := build()
		if err != nil {
			return err
		}
		s.AddResult(r)
		return nil
	}
}

func loadProgramSymbols(s *debugger.Symbols, name string) error {
	if err := programSymbols()[name](s); err != nil {
		return fmt.Errorf("--sym %s: %w", name, err)
	}
	return nil
}

// debugBoard builds the machine from run's flags (on flags) and debugs
// it, printing on term's output.
func debugBoard(flags, term *cobra.Command, o *runOptions) (err error) {
	s := newRunSession(o)
	defer s.exitHooks(&err)
	dbg := o.debug
	if err := checkRecordEdges(dbg.edges); err != nil {
		return err
	}
	if dbg.window && (dbg.text || dbg.script == "") {
		return errors.New("debug: --window goes with --script (the window is the default without --text)")
	}
	if !dbg.text && (dbg.script == "" || dbg.window) {
		if err := handOffWindow(); err != nil {
			return err
		}
	}
	if dbg.script != "" {
		if err := checkScriptFile(dbg.script); err != nil {
			return fmt.Errorf("--script %w", err) // a FIFO would block with no writer
		}
	}
	if err := checkSymbolFiles(dbg.syms); err != nil {
		return err
	}
	if err := checkOutputs(nil, outputFile{"--state-file", dbg.state}); err != nil {
		return err
	}
	if flags.Flags().Changed("serial") || flags.Flags().Changed("printer") {
		return fmt.Errorf("--serial and --printer attach the host to lbplus run only, not to the debugger")
	}
	cfg, err := s.config(flags)
	if err != nil {
		return err
	}
	if err := checkOutputs(s.inputs, outputFile{"--state-file", dbg.state}); err != nil {
		return err
	}
	var out []byte
	var toWindow func(byte)
	cfg.ConsoleOut = func(_ sched.Time, b byte) {
		if toWindow != nil {
			toWindow(b)
			return
		}
		out = append(out, b)
	}
	board, err := s.newBoard(cfg)
	if err != nil {
		return err
	}
	defer board.Close()
	d := debugger.ForBoard(board, debugger.NewRecorder(dbg.edges))
	d.Rec.SetInitiator(cfg.SCSIID)
	if img, err := monitor.Image(); err == nil && bytes.Equal(img, cfg.ROM) {
		r, err := monitor.Result()
		if err != nil {
			return err
		}
		d.Syms.AddResult(r)
	}
	// A machine that boots our CP/M (its boot disk, SCSI ID 0, carries
	// our configuration block) has its CCP, BDOS and BIOS named too.
	if bootsOurCPM(board) {
		if err := loadProgramSymbols(d.Syms, "cpm"); err != nil {
			return err
		}
	}
	for _, name := range dbg.syms {
		if _, ok := programSymbols()[name]; ok {
			if err := loadProgramSymbols(d.Syms, name); err != nil {
				return err
			}
			continue
		}
		if err := d.Syms.LoadFile(name); err != nil {
			return err
		}
	}

	if dbg.text || (dbg.script != "" && !dbg.window) {
		x := debugger.NewText(d, board, term.OutOrStdout())
		x.ConsoleOut = func() []byte { p := out; out = nil; return p }
		if dbg.script != "" {
			f, err := os.Open(dbg.script)
			if err != nil {
				return fmt.Errorf("--script: %w", err)
			}
			defer f.Close()
			x.Echo = true
			if err := x.Run(f, "", true); err != nil {
				return fmt.Errorf("%s: %w", dbg.script, err)
			}
			return nil
		}
		fmt.Fprintln(term.OutOrStdout(), "lbplus debugger: the machine is paused at reset; help lists the commands")
		return x.Run(term.InOrStdin(), "(lbplus) ", false)
	}

	return openWindow(d, board, cfg, dbg.state, dbg.script, &toWindow)
}

// checkRecordEdges refuses a recorder that is too small to be of use or
// too big for this machine's memory (the recorder takes it all at once,
// debugger.EdgeSize bytes an edge), before anything is built or the
// window opens: one line, not an out-of-memory crash minutes later.
func checkRecordEdges(n int) error {
	if n < 1024 {
		return fmt.Errorf("--record-edges %d: keep at least 1024", n)
	}
	need := uint64(n) * uint64(debugger.EdgeSize)
	if free, ok := memAvailable(); ok && need > free/2 {
		return fmt.Errorf("--record-edges %d: %s of edges (%d bytes each) will not fit in half of this machine's %s of free memory",
			n, sizeText(need), debugger.EdgeSize, sizeText(free))
	}
	return nil
}

// memAvailable is the memory the host can still give (Linux's
// MemAvailable), if it says.
func memAvailable() (uint64, bool) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemAvailable:"); ok {
			var kb uint64
			if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%d kB", &kb); err == nil {
				return kb * 1024, true
			}
		}
	}
	return 0, false
}

// sizeText is a byte count for people: "15.7 GB", "512 MB".
func sizeText(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%d MB", n>>20)
	}
	return fmt.Sprintf("%d KB", n>>10)
}

// bootsOurCPM reports whether the disk at SCSI ID 0 is an lbplus CP/M
// system disk, so the debugger can name CP/M's CCP, BDOS and BIOS by
// itself.
func bootsOurCPM(b *emu.Board) bool {
	m, ok := b.SCSIDevice(emu.HD0ID).(scsidev.Medium)
	return ok && sysdisk.Ours(m)
}

// checkDisplay refuses the window when the environment names no display.
func checkDisplay() error {
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return errors.New("debug: no display to open the window on (DISPLAY is not set); use --text or --script FILE, or run under xvfb-run")
	}
	return nil
}
