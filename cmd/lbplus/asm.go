package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"lbplus/asm"
)

func init() {
	var (
		out, list, sym string
		hex            bool
		incs, defs     []string
	)
	cmd := &cobra.Command{
		Use:   "asm SRC",
		Short: "Assemble a Z80 source file (pasmo-compatible syntax)",
		Long: `Assemble a Z80 source file into a raw binary (default) or Intel HEX.
Errors are printed as file:line:col: message and the exit status is 1.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAsm(args[0], out, hex, list, sym, incs, defs)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&out, "output", "o", "", "output file (default: SRC with .bin or .hex)")
	f.BoolVar(&hex, "hex", false, "write Intel HEX instead of a raw binary")
	f.StringVar(&list, "list", "", "write a listing with T-states to this file")
	f.StringVar(&sym, "sym", "", "write the symbol table to this file")
	f.StringArrayVarP(&incs, "include", "I", nil, "add a directory searched by INCLUDE and INCBIN")
	f.StringArrayVarP(&defs, "define", "D", nil, "define NAME=VALUE (VALUE defaults to 0FFFFh, as pasmo -E)")
	rootCmd.AddCommand(cmd)
}

// fsPath turns a host path into a path inside os.DirFS("/").
func fsPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return strings.TrimPrefix(filepath.ToSlash(abs), "/"), nil
}

func runAsm(src, out string, hex bool, list, sym string, incs, defs []string) error {
	opts := asm.Options{Defines: map[string]int64{}}
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
		opts.Defines[name] = v
	}
	for _, d := range incs {
		p, err := fsPath(d)
		if err != nil {
			return err
		}
		opts.IncludeDirs = append(opts.IncludeDirs, p)
	}
	main, err := fsPath(src)
	if err != nil {
		return err
	}
	res, err := asm.Assemble(os.DirFS("/"), main, opts)
	if err != nil {
		var el asm.ErrorList
		if errors.As(err, &el) {
			cwd, _ := os.Getwd()
			for _, e := range el {
				name := "/" + e.File
				if rel, rerr := filepath.Rel(cwd, name); rerr == nil && !strings.HasPrefix(rel, "..") {
					name = rel
				}
				if e.File == main {
					name = src
				}
				fmt.Fprintf(os.Stderr, "%s:%d:%d: %s\n", name, e.Line, e.Col, e.Msg)
			}
			os.Exit(1)
		}
		return err
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(os.Stderr, "warning:", w)
	}
	if out == "" {
		ext := ".bin"
		if hex {
			ext = ".hex"
		}
		out = strings.TrimSuffix(src, filepath.Ext(src)) + ext
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
	_ = strconv.Itoa
	return nil
}
