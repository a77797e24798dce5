package asm

// Data directives (DB, DW, DS) and files (INCLUDE, INCBIN).

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// dataList is the operand list of DB (size 1) or DW (size 2): items
// separated by commas, each an expression put in as size bytes, low byte
// first. A DB item may also be a string of other than one character, put in
// as its bytes; a DB value from 100h to FEFFh is an error.
func (a *assembler) dataList(w *token, ops []token, size int) []byte {
	parts := splitOps(ops)
	if len(parts) == 0 {
		a.hardf(w.col, "%s needs operands", w.text)
		return nil
	}
	var out []byte
	for _, p := range parts {
		if len(p) == 0 {
			a.hardf(w.col, "empty item in %s list", w.text)
			return nil
		}
		if size == 1 && len(p) == 1 && p[0].kind == tStr && len(p[0].str) != 1 {
			out = append(out, p[0].str...)
			continue
		}
		e, err := parseExpr(p)
		if err != nil {
			a.hardf(err.col, "%s", err.msg)
			return nil
		}
		v, err := eval(e, a)
		if err != nil {
			a.errorf(err.col, "%s", err.msg)
		} else if size == 1 && v > 0xFF && v < 0xFF00 {
			a.errorf(p[0].col, "value %s out of range for a byte", hex16(v))
		}
		out = append(out, byte(v))
		if size == 2 {
			out = append(out, byte(v>>8))
		}
	}
	a.emit(out)
	return out
}

func (a *assembler) dataSpace(w *token, ops []token) []byte {
	parts := splitOps(ops)
	if len(parts) == 0 || len(parts) > 2 {
		a.hardf(w.col, "%s needs a size and an optional fill byte", w.text)
		return nil
	}
	n, ok := a.exprOps(parts[0], w)
	if !ok {
		return nil
	}
	fill := int64(0)
	if len(parts) == 2 {
		if fill, ok = a.exprOps(parts[1], w); !ok {
			return nil
		}
		if fill > 0xFF && fill < 0xFF00 {
			a.errorf(parts[1][0].col, "fill value %s out of range for a byte", hex16(fill))
		}
	}
	out := make([]byte, n)
	if fill != 0 {
		for i := range out {
			out[i] = byte(fill)
		}
	}
	a.emit(out)
	return out
}

// fileArg extracts a pasmo-style file name: quoted, or up to the next blank.
func fileArg(text string, w *token) (string, bool) {
	s := strings.TrimLeft(text[w.col-1+len(w.text):], " \t")
	if s == "" {
		return "", false
	}
	if s[0] == '"' || s[0] == '\'' {
		j := strings.IndexByte(s[1:], s[0])
		if j < 0 {
			return "", false
		}
		return s[1 : j+1], true
	}
	if j := strings.IndexAny(s, " \t;"); j >= 0 {
		s = s[:j]
	}
	return s, s != ""
}

// findFile resolves an INCLUDE/INCBIN name: next to the including file,
// then in each include directory, then from the file system root.
func (a *assembler) findFile(name string) (string, bool) {
	for _, c := range a.candidates(name) {
		if st, err := fs.Stat(a.fsys, c); err == nil && !st.IsDir() {
			return c, true
		}
	}
	return "", false
}

// candidates are the paths findFile tries for name, in order.
func (a *assembler) candidates(name string) []string {
	name = strings.TrimPrefix(name, "/")
	cands := []string{path.Join(path.Dir(a.cur.file), name)}
	for _, d := range a.opts.IncludeDirs {
		cands = append(cands, path.Join(strings.TrimPrefix(d, "/"), name))
	}
	cands = append(cands, path.Clean(name))
	var valid []string
	for _, c := range cands {
		if fs.ValidPath(c) {
			valid = append(valid, c)
		}
	}
	return valid
}

// notFound says why findFile found no file for name: nothing of that name,
// or only a folder.
func (a *assembler) notFound(kind, name string) string {
	for _, c := range a.candidates(name) {
		if st, err := fs.Stat(a.fsys, c); err == nil && st.IsDir() {
			return fmt.Sprintf("%s file %s is a folder, not a file", kind, quote(name))
		}
	}
	return fmt.Sprintf("%s file %s not found", kind, quote(name))
}

func (a *assembler) include(l srcLine, w *token) {
	name, ok := fileArg(l.text, w)
	if !ok {
		a.hardf(w.col, "INCLUDE needs a file name")
		return
	}
	p, ok := a.findFile(name)
	if !ok {
		a.hardf(w.col+len(w.text)+1, "%s", a.notFound("INCLUDE", name))
		return
	}
	for _, f := range a.incl {
		if f == p {
			a.hardf(w.col, "recursive INCLUDE of %s", quote(name))
			return
		}
	}
	lines, err := a.load(p)
	if err != nil {
		a.hardf(w.col, "cannot read INCLUDE file %s: %s", quote(name), errText(err))
		return
	}
	if !a.enter(w.col) {
		return
	}
	a.incl = append(a.incl, p)
	saveExp := a.curExp
	a.runLines(lines, nil)
	a.curExp = saveExp
	a.incl = a.incl[:len(a.incl)-1]
	a.leave()
}

func (a *assembler) incbin(l srcLine, w *token) []byte {
	name, ok := fileArg(l.text, w)
	if !ok {
		a.hardf(w.col, "INCBIN needs a file name")
		return nil
	}
	p, ok := a.findFile(name)
	if !ok {
		a.hardf(w.col+len(w.text)+1, "%s", a.notFound("INCBIN", name))
		return nil
	}
	data, err := readBounded(a.fsys, p, 0x10000)
	if err != nil {
		a.hardf(w.col, "cannot read INCBIN file %s: %s", quote(name), errText(err))
		return nil
	}
	a.emit(data)
	return data
}
