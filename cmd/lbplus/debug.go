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
)

// `lbplus debug` (or `lbplus run --debug`) builds the machine `lbplus run`
// would, from the same flags, and opens the debugger on it: the window, or
// with --text the text front-end on this terminal, or with --script FILE
// the commands of FILE, printed as they run.

var debugFlags struct {
	on     bool
	text   bool
	script string
	window bool // --script in the window
	syms   []string
	edges  int
	state  string
	bench  string // bench backup --debug-script
	benchW bool   // bench backup --debug (the window)
}

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

var debugCmd = &cobra.Command{
	Use:                "debug [run flags] [--text | --script FILE] [--sym FILE]...",
	Short:              "Debug the board: window, or text with --text / --script",
	Long:               debugLong,
	DisableFlagParsing: true, // the flags are run's: parsed by runCmd
	RunE: func(cmd *cobra.Command, args []string) error {
		if err := runCmd.ParseFlags(args); err != nil {
			if errors.Is(err, pflag.ErrHelp) {
				fmt.Fprintf(cmd.OutOrStdout(), "%s\n\nUsage:\n  lbplus %s\n\nFlags:\n%s", debugLong, cmd.Use, runCmd.Flags().FlagUsagesWrapped(helpWidth))
				return nil
			}
			return err
		}
		if runCmd.Flags().NArg() > 0 {
			return fmt.Errorf("debug: unexpected argument %q", runCmd.Flags().Arg(0))
		}
		debugFlags.on = true
		return debugBoard(runCmd, cmd)
	},
}

func init() {
	f := runCmd.Flags()
	f.BoolVar(&debugFlags.on, "debug", false, "open the debugger window on the machine (same as lbplus debug)")
	f.BoolVar(&debugFlags.text, "text", false, "debugger: text front-end on this terminal instead of the window")
	f.StringVar(&debugFlags.script, "script", "", "debugger: run the commands in `FILE`, print what they show, exit")
	f.BoolVar(&debugFlags.window, "window", false, "debugger: with --script, run the script in the window and keep it open")
	f.StringArrayVar(&debugFlags.syms, "sym", nil, "debugger: symbol `FILE` written by lbplus asm --sym, or a program of lbplus: cpm, backup, diskbench, tapebench (repeatable)")
	f.StringVar(&debugFlags.state, "state-file", "lbplus-debug.state", "debugger window: where F3 saves the machine's state and F4 loads it")
	f.IntVar(&debugFlags.edges, "record-edges", debugger.DefaultEdges, "debugger: bus edges the signal recorder keeps (16 bytes each)")
	run := runCmd.RunE
	runCmd.RunE = func(cmd *cobra.Command, args []string) error {
		if debugFlags.on || debugFlags.text || debugFlags.script != "" {
			return debugBoard(cmd, cmd)
		}
		return run(cmd, args)
	}
	rootCmd.AddCommand(debugCmd)
	// bench backup --debug-script FILE: the text debugger on the backup
	// run's board (bench_backup.go's init ran before this file's).
	for _, c := range benchCmd.Commands() {
		if c.Name() == "backup" {
			c.Flags().StringVar(&debugFlags.bench, "debug-script", "", "run the debugger commands in `FILE` on the board before the run goes on to its end (lbplus debug --script)")
			c.Flags().BoolVar(&debugFlags.benchW, "debug", false, "open the debugger window on the board; the run goes on to its end when it is closed")
			run := c.RunE
			c.RunE = func(cmd *cobra.Command, args []string) error {
				if debugFlags.benchW {
					if err := handOffWindow(); err != nil {
						return err
					}
				}
				return run(cmd, args)
			}
		}
	}
	// The console escape: Ctrl-\ then "debug CMD" runs one debugger
	// command on the running board (the machine waits meanwhile).
	addMenuCommand(menuCommand{name: "debug", short: "g", usage: "debug COMMAND (debug help lists them)",
		run: menuDebug})
}

// maxSymbolFile bounds a --sym file: lbplus asm --sym writes one line of
// about 30 bytes per symbol, so 16 MB is far more than any Z80 program has.
const maxSymbolFile = 16 << 20

// checkSymbolFiles refuses, before the machine is built, a --sym that is
// neither one of lbplus's programs nor a regular file of bounded size (a
// named pipe would block, /dev/zero never end).
func checkSymbolFiles(names []string) error {
	for _, name := range names {
		if _, ok := programSymbols[name]; ok {
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
func checkBenchDebugScript() error {
	if debugFlags.bench == "" {
		return nil
	}
	if err := checkScriptFile(debugFlags.bench); err != nil {
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
func benchDebugHook(w io.Writer) func(*emu.Board) {
	if debugFlags.benchW {
		return func(b *emu.Board) {
			d := debugger.ForBoard(b, debugger.NewRecorder(debugger.DefaultEdges))
			defer d.Detach() // the run goes on to its end undebugged
			if err := loadProgramSymbols(d.Syms, "backup"); err != nil {
				fmt.Fprintln(w, "debugger:", err)
			}
			if err := openWindow(d, b, emu.Config{ROMName: "bench backup"}, new(func(byte))); err != nil {
				fmt.Fprintln(w, "debugger:", err)
			}
		}
	}
	path := debugFlags.bench
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

// menuDebuggers is the debugger of each board the escape prompt has used,
// made on first use: it records from then on.
var menuDebuggers = map[*emu.Board]*debugger.Text{}

func menuDebug(b *emu.Board, args []string) string {
	x := menuDebuggers[b]
	if x == nil {
		d := debugger.ForBoard(b, debugger.NewRecorder(0))
		// The built-in ROM unless the flags named another one (a machine
		// file may).
		if runFlags.rom == "" && runFlags.machine == "" {
			if r, err := monitor.Result(); err == nil {
				d.Syms.AddResult(r)
			}
		}
		x = debugger.NewText(d, b, nil)
		menuDebuggers[b] = x
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
var programSymbols = map[string]func(s *debugger.Symbols) error{
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
	if err := programSymbols[name](s); err != nil {
		return fmt.Errorf("--sym %s: %w", name, err)
	}
	return nil
}

// debugBoard builds the machine from run's flags (on flags) and debugs
// it, printing on term's output.
func debugBoard(flags, term *cobra.Command) (err error) {
	runAtExit = nil
	defer runExitHooks(&err)
	if err := checkRecordEdges(debugFlags.edges); err != nil {
		return err
	}
	if debugFlags.window && (debugFlags.text || debugFlags.script == "") {
		return errors.New("debug: --window goes with --script (the window is the default without --text)")
	}
	if !debugFlags.text && (debugFlags.script == "" || debugFlags.window) {
		if err := handOffWindow(); err != nil {
			return err
		}
	}
	if debugFlags.script != "" {
		if err := checkScriptFile(debugFlags.script); err != nil {
			return fmt.Errorf("--script %w", err) // a FIFO would block with no writer
		}
	}
	if err := checkSymbolFiles(debugFlags.syms); err != nil {
		return err
	}
	if err := checkOutputs(nil, outputFile{"--state-file", debugFlags.state}); err != nil {
		return err
	}
	if flags.Flags().Changed("serial") || flags.Flags().Changed("printer") {
		return fmt.Errorf("--serial and --printer attach the host to lbplus run only, not to the debugger")
	}
	cfg, err := runConfig(flags)
	if err != nil {
		return err
	}
	if err := checkOutputs(runInputs, outputFile{"--state-file", debugFlags.state}); err != nil {
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
	board, err := newBoard(cfg)
	if err != nil {
		return err
	}
	defer board.Close()
	d := debugger.ForBoard(board, debugger.NewRecorder(debugFlags.edges))
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
	for _, name := range debugFlags.syms {
		if _, ok := programSymbols[name]; ok {
			if err := loadProgramSymbols(d.Syms, name); err != nil {
				return err
			}
			continue
		}
		if err := d.Syms.LoadFile(name); err != nil {
			return err
		}
	}

	if debugFlags.text || (debugFlags.script != "" && !debugFlags.window) {
		x := debugger.NewText(d, board, term.OutOrStdout())
		x.ConsoleOut = func() []byte { p := out; out = nil; return p }
		if debugFlags.script != "" {
			f, err := os.Open(debugFlags.script)
			if err != nil {
				return fmt.Errorf("--script: %w", err)
			}
			defer f.Close()
			x.Echo = true
			if err := x.Run(f, "", true); err != nil {
				return fmt.Errorf("%s: %w", debugFlags.script, err)
			}
			return nil
		}
		fmt.Fprintln(term.OutOrStdout(), "lbplus debugger: the machine is paused at reset; help lists the commands")
		return x.Run(term.InOrStdin(), "(lbplus) ", false)
	}

	return openWindow(d, board, cfg, &toWindow)
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
// system disk (its block 31 is our configuration block), so the debugger
// can name CP/M's CCP, BDOS and BIOS by itself.
func bootsOurCPM(b *emu.Board) bool {
	m, ok := b.SCSIDevice(HD0ID).(scsidev.Medium)
	if !ok {
		return false
	}
	_, ours, err := cpmbios.ReadHDConfig(mediumBlocks{m})
	return err == nil && ours
}

// mediumBlocks reads a SCSI medium's LUN 0 as a cpmbios.BlockDevice
// (reads only: it is for looking).
type mediumBlocks struct{ m scsidev.Medium }

func (x mediumBlocks) Blocks() int64 { return cpmbios.SysBlocks }
func (x mediumBlocks) ReadBlock(n int64, buf []byte) error {
	return x.m.PeekBlock(0, n, buf)
}
func (x mediumBlocks) WriteBlock(int64, []byte) error {
	return errors.New("read only")
}
