package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lbplus/lbplus/cmd/lbplus/internal/hostport"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/sched"
)

// The board's second serial port (DART channel B) and its printer port on
// the host: `lbplus run --serial pty|tcp:PORT|tcp:HOST:PORT|FILE` and
// `--printer FILE`, or serial = and printer = in a machine file
// (docs/CPM.md, "Serial port and printer").
type hostOptions struct {
	serial  string
	printer string
}

func addHostIOFlags(f *pflag.FlagSet, o *hostOptions) {
	f.StringVar(&o.serial, "serial", "", "DART channel B: pty (prints the terminal's name), tcp:PORT (this host only), tcp:HOST:PORT, or a `FILE` that gets what the board sends")
	f.StringVar(&o.printer, "printer", "", "a printer on the parallel port: what the board prints (LST:) is appended to `FILE`")
}

// hostIOFlags puts --serial and --printer over what the machine file said
// and checks both, before anything is opened or made.
func (s *runSession) hostIOFlags(cmd *cobra.Command, cfg *emu.Config) error {
	o := s.o
	if cmd.Flags().Changed("serial") || o.machine == "" {
		cfg.Serial = o.host.serial
	}
	if cmd.Flags().Changed("printer") || o.machine == "" {
		cfg.Printer = o.host.printer
	}
	serialFile := ""
	if v := cfg.Serial; v == "pty" || strings.HasPrefix(v, "tcp:") {
		if err := hostport.CheckSerial("--serial", v); err != nil {
			return err
		}
	} else {
		serialFile = v
	}
	// Neither may overwrite an image, an input or another output.
	if err := checkOutputs(s.inputs, outputFile{"--vcd", o.trace.vcd}, outputFile{"--trace", o.trace.text},
		outputFile{"--save-state", o.saveState}, outputFile{"--serial", serialFile},
		outputFile{"--printer", cfg.Printer}); err != nil {
		return err
	}
	for _, o := range []outputFile{{"--serial", serialFile}, {"--printer", cfg.Printer}} {
		if o.path != "" {
			if err := checkAppendFile(o.flag, o.path); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkAppendFile reports, without making anything, whether path can be
// opened to append to: an existing file (or device) that is writable, or a
// new file in a directory that exists.
func checkAppendFile(flag, path string) error {
	bad := func(err error) error {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("%s %s: %v", flag, path, err)
	}
	st, err := os.Stat(path)
	switch {
	case err == nil && st.IsDir():
		return fmt.Errorf("%s %s: is a directory", flag, path)
	case err == nil:
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return bad(err)
		}
		return f.Close()
	case !errors.Is(err, fs.ErrNotExist):
		return bad(err)
	}
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil {
		return bad(err)
	} else if !st.IsDir() {
		return fmt.Errorf("%s %s: %s is not a directory", flag, path, dir)
	}
	return nil
}

// hostIO is the host side of channel B and the printer while a board runs.
type hostIO struct {
	serial  hostport.Serial // pty or socket; nil for a file or nothing
	sfile   *os.File        // --serial FILE
	printer *os.File
	out     []byte // what channel B sent in this slice
	err     error  // a write to a file failed
}

// openHostIO opens what cfg.Serial and cfg.Printer name and sets the
// board's callbacks in cfg. It tells w where the serial port is.
func openHostIO(cfg *emu.Config, w io.Writer) (*hostIO, error) {
	h := &hostIO{}
	var err error
	switch s := cfg.Serial; {
	case s == "":
	case s == "pty" || strings.HasPrefix(s, "tcp:"):
		if h.serial, err = hostport.OpenSerial("--serial", s); err != nil {
			return nil, err
		}
		switch p := h.serial.(type) {
		case *hostport.Pty:
			fmt.Fprintf(w, "lbplus: serial port (DART B) on %s\r\n", p.Name())
		case *hostport.Raw:
			fmt.Fprintf(w, "lbplus: serial port (DART B) on tcp %s\r\n", p.Addr())
			if p.Exposed() {
				fmt.Fprintf(w, "lbplus: warning: the serial port listens on %s without a password: anyone who can reach this host can use it\r\n", p.Addr())
			}
		}
		cfg.SerialBOut = func(_ sched.Time, b byte) { h.out = append(h.out, b) }
	default:
		if h.sfile, err = appendFile("--serial", s); err != nil {
			return nil, err
		}
		cfg.SerialBOut = func(_ sched.Time, b byte) { h.write(h.sfile, "--serial", b) }
	}
	if cfg.Printer != "" {
		if h.printer, err = appendFile("--printer", cfg.Printer); err != nil {
			h.Close()
			return nil, err
		}
		cfg.PrinterOut = func(_ sched.Time, b byte) { h.write(h.printer, "--printer", b) }
	}
	return h, nil
}

func appendFile(flag, path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s %s: %v", flag, path, err)
	}
	return f, nil
}

// write puts a byte in a file as it comes, so a crash loses nothing
// printed; the first failure ends the run (pump reports it).
func (h *hostIO) write(f *os.File, flag string, b byte) {
	if h.err != nil {
		return
	}
	if _, err := f.Write([]byte{b}); err != nil {
		h.err = fmt.Errorf("%s: %w", flag, err)
	}
}

// serialBacklog bounds the host's bytes handed to the board ahead of
// DART B, as consoleBacklog does for the console: an XMODEM 1K block and
// a little more.
const serialBacklog = 1100

// pump hands the host's bytes to channel B while fewer than serialBacklog
// wait there, and sends what the board sent; it returns a file's write
// error. `lbplus run` calls it between slices.
func (h *hostIO) pump(b *emu.Board) error {
	if h == nil {
		return nil
	}
	if h.serial != nil {
	feed:
		for b.SerialBQueued() < serialBacklog {
			select {
			case p := <-h.serial.Input():
				b.SerialBInput(p)
			default:
				break feed
			}
		}
		if len(h.out) > 0 {
			h.serial.Write(h.out)
			h.out = h.out[:0]
		}
	}
	return h.err
}

// Close closes the serial end and the files.
func (h *hostIO) Close() error {
	var errs []error
	if h.serial != nil {
		errs = append(errs, h.serial.Close())
	}
	for _, f := range []*os.File{h.sfile, h.printer} {
		if f != nil {
			errs = append(errs, f.Close())
		}
	}
	return errors.Join(errs...)
}
