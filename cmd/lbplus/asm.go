package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lbplus/lbplus/asm"
)

func newAsmCmd() *cobra.Command {
	var (
		out, list, sym string
		hex, alocal    bool
		incs, defs     []string
	)
	cmd := &cobra.Command{
		Use:   "asm SRC",
		Short: "Assemble a Z80 source file (pasmo-compatible syntax)",
		Long: `Assemble a Z80 source file into a raw binary (default) or Intel HEX.
Errors are printed as file:line:col: message and the exit status is 1.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if code := runAsm(os.Stderr, args[0], out, hex, list, sym, incs, defs, alocal); code != 0 {
				os.Exit(code)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVarP(&out, "output", "o", "", "output file (default: SRC with .bin or .hex)")
	f.BoolVar(&hex, "hex", false, "write Intel HEX instead of a raw binary")
	f.StringVar(&list, "list", "", "write a listing with T-states to this file")
	f.StringVar(&sym, "sym", "", "write the symbol table to this file")
	f.StringArrayVarP(&incs, "include", "I", nil, "add a directory searched by INCLUDE and INCBIN")
	f.BoolVar(&alocal, "alocal", false, "labels starting with _ are local between ordinary labels (pasmo --alocal)")
	f.StringArrayVarP(&defs, "define", "D", nil, "define NAME=VALUE (VALUE defaults to 0FFFFh, as pasmo -E)")
	return cmd
}

// hostFS maps host paths into os.DirFS("/"), so INCLUDE "../lib/x.inc"
// works from anywhere, and maps them back for messages and listings,
// relative to the working directory when below it.
type hostFS struct {
	root, cwd string
}

func newHostFS() hostFS {
	cwd, _ := os.Getwd()
	return hostFS{root: "/", cwd: cwd}
}

// path turns a host path into a path inside os.DirFS(h.root).
func (h hostFS) path(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return strings.TrimPrefix(filepath.ToSlash(abs), "/"), nil
}

// host turns a file system path back into a short host path.
func (h hostFS) host(p string) string {
	abs := filepath.FromSlash("/" + p)
	if h.cwd != "" {
		if rel, err := filepath.Rel(h.cwd, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return rel
		}
	}
	return abs
}

// runAsm does the work of `lbplus asm` and returns the exit status; every
// problem is one line on stderr.
func runAsm(stderr io.Writer, src, out string, hex bool, list, sym string, incs, defs []string, alocal bool) int {
	if err := assembleFile(stderr, src, out, hex, list, sym, incs, defs, alocal); err != nil {
		if err != errReported {
			fmt.Fprintln(stderr, "lbplus asm:", err)
		}
		return 1
	}
	return 0
}

// errReported means the errors were already printed as file:line:col lines.
var errReported = errors.New("reported")

func assembleFile(stderr io.Writer, src, out string, hex bool, list, sym string, incs, defs []string, alocal bool) error {
	opts := asm.Options{Defines: map[string]int64{}, AutoLocal: alocal}
	for _, d := range defs {
		name, val, ok := strings.Cut(d, "=")
		v := int64(0xFFFF)
		if ok {
			r, err := asm.AssembleString(" dw "+val, asm.Options{})
			if err != nil || len(r.Bytes) != 2 {
				return fmt.Errorf("-D %s: bad value %q", d, val)
			}
			v = int64(r.Bytes[0]) | int64(r.Bytes[1])<<8
		}
		if name == "" {
			return fmt.Errorf("-D %s: missing name", d)
		}
		opts.Defines[name] = v
	}
	hfs := newHostFS()
	for _, d := range incs {
		p, err := hfs.path(d)
		if err != nil {
			return err
		}
		opts.IncludeDirs = append(opts.IncludeDirs, p)
	}
	main, err := hfs.path(src)
	if err != nil {
		return err
	}
	if out == "" {
		ext := ".bin"
		if hex {
			ext = ".hex"
		}
		out = strings.TrimSuffix(src, filepath.Ext(src)) + ext
	}
	outs := []outputFile{{"-o", out}, {"--list", list}, {"--sym", sym}}
	if err := checkOutputs([]string{src}, outs...); err != nil {
		return err
	}
	res, err := asm.Assemble(os.DirFS(hfs.root), main, opts)
	if err != nil {
		var el asm.ErrorList
		if errors.As(err, &el) {
			for _, e := range el {
				name := hfs.host(e.File)
				if e.File == main {
					name = src
				}
				fmt.Fprintf(stderr, "%s:%d:%d: %s\n", name, e.Line, e.Col, e.Msg)
			}
			return errReported
		}
		return err
	}
	sources := []string{src}
	for i := range res.Listing {
		res.Listing[i].File = hfs.host(res.Listing[i].File)
		if f := res.Listing[i].File; f != sources[len(sources)-1] {
			sources = append(sources, f)
		}
	}
	// An INCLUDEd file is an input too; it is known only now.
	if err := checkOutputs(sources, outs...); err != nil {
		return err
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(stderr, "warning:", w)
	}
	var buf bytes.Buffer
	if hex {
		if err := res.WriteHex(&buf); err != nil {
			return err
		}
	} else {
		buf.Write(res.Bytes)
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		return err
	}
	write := func(name string, fn func(*bytes.Buffer) error) error {
		if name == "" {
			return nil
		}
		var b bytes.Buffer
		if err := fn(&b); err != nil {
			return err
		}
		return os.WriteFile(name, b.Bytes(), 0o644)
	}
	if err := write(list, func(b *bytes.Buffer) error { return res.WriteListing(b) }); err != nil {
		return err
	}
	if err := write(sym, func(b *bytes.Buffer) error { return res.WriteSymbols(b) }); err != nil {
		return err
	}
	return nil
}
