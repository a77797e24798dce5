package asm

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Options controls an assembly.
type Options struct {
	// Defines are symbols set before the first line, like pasmo -E NAME=VALUE.
	Defines map[string]int64
	// IncludeDirs are directories inside the file system searched by INCLUDE
	// and INCBIN after the directory of the including file.
	IncludeDirs []string
	// AutoLocal makes labels starting with '_' local to the stretch between
	// two ordinary labels, like pasmo --alocal.
	AutoLocal bool
	// MaxLines bounds the work of one pass in lines assembled plus REPT
	// and IRP repetitions (four times that over all passes); 0 means the
	// default, 500,000. The fuzz targets lower it to keep every input fast.
	MaxLines int
}

// ListLine is one line of the listing.
type ListLine struct {
	File    string
	Line    int
	Addr    uint16 // logical address ($) at the start of the line
	HasAddr bool   // the line emitted bytes or defined an address label
	Bytes   []byte
	TStates string // e.g. "7", "12/7"; empty for data and directives
	Text    string // source text after macro parameter substitution
	Depth   int    // macro/REPT/INCLUDE nesting depth, 0 for the main file
}

// Result is an assembled image.
type Result struct {
	Org      uint16 // lowest address emitted
	Bytes    []byte // image from Org to the highest address emitted; gaps are 0
	Symbols  map[string]int64
	Listing  []ListLine
	Entry    int64 // END operand, -1 when absent
	Warnings []string
	defl     map[string]bool // DEFL/= symbols, left out of the symbol file as pasmo does
	labels   map[string]bool // symbols defined as address labels (not EQU, DEFL or -D)
	// Written marks, per byte of Bytes, whether the source emitted it (false
	// for gaps between ORG blocks), for writers that skip gaps.
	Written []bool
}

// Error is one assembly error at a source position.
type Error struct {
	File string
	Line int
	Col  int
	Msg  string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// ErrorList is several assembly errors; Error() puts each on its own line.
type ErrorList []*Error

func (l ErrorList) Error() string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// Unwrap lets errors.As find each *Error.
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

const (
	maxPasses     = 12
	maxDepth      = 64      // INCLUDE + MACRO nesting
	maxLinesPass  = 500000  // lines processed per pass, stops runaway REPT
	maxLinesTotal = 2000000 // lines over all passes, stops slow non-convergence
	maxErrors     = 100
	maxReptCount  = 65536
	// maxSourceBytes bounds a source or INCLUDE file: far above any Z80
	// program's source, far below what would exhaust memory.
	maxSourceBytes = 16 << 20
	localPrefix    = "#L"
)

type symKind uint8

const (
	symLabel symKind = iota
	symEqu
	symDefl
	symDefine
)

type symbol struct {
	val  int64
	kind symKind
	pass int // last pass that defined it
	file string
	line int
}

type srcLine struct {
	text string
	file string
	line int
}

type macroDef struct {
	name   string
	params []string
	body   []srcLine
	file   string
	line   int
}

// expansion is a running MACRO, REPT or IRP body.
type expansion struct {
	parent *expansion
	params []string
	args   []string
	exit   bool
	desc   string // for error messages: "macro FOO called at f:12"
}

type scope struct {
	names map[string]string
}

type assembler struct {
	fsys  fs.FS
	opts  Options
	files map[string][]srcLine

	pass       int
	syms       map[string]*symbol
	pc         int64 // logical address
	phaseOff   int64 // physical - logical, non-zero inside PHASE
	mem        []byte
	used       []bool
	lo, hi     int
	errs       []*Error
	warns      []string
	macros     map[string]*macroDef
	incl       []string
	depth      int
	ended      bool
	entry      int64
	listing    []ListLine
	scopes     []*scope
	localSeq   int
	autoSeq    int
	lines      int
	totalLines int
	stmtPC     int64

	cur     srcLine
	curExp  *expansion
	toks    []token
	budgetX bool
	fatal   bool // stop after this pass: more passes cannot help
	overrun bool // "past FFFFh" already reported this pass
}

// AssembleString assembles src as a file named "input.asm" in an empty
// file system; INCLUDE only finds files through opts.IncludeDirs of nothing.
func AssembleString(src string, opts Options) (*Result, error) {
	return Assemble(memFS{"input.asm": []byte(src)}, "input.asm", opts)
}

// Assemble assembles mainFile from fsys.
func Assemble(fsys fs.FS, mainFile string, opts Options) (res *Result, err error) {
	defer func() {
		// A bug must not take down a caller that assembles user input.
		if p := recover(); p != nil {
			res, err = nil, ErrorList{{File: mainFile, Msg: fmt.Sprintf("%s: %v", internalError, p)}}
		}
	}()
	a := &assembler{fsys: fsys, opts: opts, files: map[string][]srcLine{}, syms: map[string]*symbol{}}
	mainFile = path.Clean(strings.TrimPrefix(mainFile, "/"))
	if _, err := a.load(mainFile); err != nil {
		return nil, ErrorList{{File: mainFile, Line: 0, Col: 0, Msg: "cannot read source: " + errText(err)}}
	}
	var prev map[string]int64
	converged := false
	for a.pass = 1; a.pass <= maxPasses; a.pass++ {
		a.runPass(mainFile)
		snap := a.snapshot()
		if prev != nil && sameSnap(prev, snap) {
			converged = true
			break
		}
		if a.fatal || a.pass >= 2 && a.hasHardErrors() {
			// Syntax errors do not depend on symbol values; pass 2 has
			// every forward reference, so its other errors are real too.
			converged = true
			break
		}
		prev = snap
	}
	if !converged && len(a.errs) == 0 {
		a.errs = append(a.errs, &Error{File: mainFile, Line: 1, Col: 1, Msg: fmt.Sprintf("symbol values did not settle after %d passes (a label's value depends on itself)", maxPasses)})
	}
	if len(a.errs) > 0 {
		for _, e := range a.errs {
			e.Msg = strings.TrimPrefix(e.Msg, errHard)
		}
		return nil, ErrorList(a.errs)
	}
	return a.result(), nil
}

const internalError = "internal assembler error (please report)"

// hardErr marks errors that no later pass can cure.
var errHard = "\x00"

func (a *assembler) hasHardErrors() bool {
	for _, e := range a.errs {
		if strings.HasPrefix(e.Msg, errHard) {
			return true
		}
	}
	return false
}

func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func (a *assembler) snapshot() map[string]int64 {
	m := make(map[string]int64, len(a.syms))
	for k, s := range a.syms {
		if s.pass == a.pass {
			m[k] = s.val
		}
	}
	return m
}

func sameSnap(x, y map[string]int64) bool {
	if len(x) != len(y) {
		return false
	}
	for k, v := range x {
		if w, ok := y[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func (a *assembler) runPass(mainFile string) {
	a.pc, a.phaseOff = 0, 0
	if a.mem == nil {
		a.mem = make([]byte, 0x10000)
		a.used = make([]bool, 0x10000)
	} else {
		clear(a.mem)
		clear(a.used)
	}
	a.lo, a.hi = 0x10000, -1
	a.errs = a.errs[:0]
	a.warns = a.warns[:0]
	a.macros = map[string]*macroDef{}
	a.incl = a.incl[:0]
	a.depth = 0
	a.ended = false
	a.entry = -1
	a.listing = a.listing[:0]
	a.scopes = a.scopes[:0]
	a.localSeq = 0
	a.autoSeq = 0
	a.lines = 0
	a.budgetX = false
	a.overrun = false
	names := make([]string, 0, len(a.opts.Defines))
	for k := range a.opts.Defines {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		a.syms[k] = &symbol{val: a.opts.Defines[k] & 0xFFFF, kind: symDefine, pass: a.pass, file: "command line"}
	}
	lines, _ := a.load(mainFile)
	a.incl = append(a.incl, mainFile)
	a.runLines(lines, nil)
}

func (a *assembler) result() *Result {
	r := &Result{Symbols: map[string]int64{}, Entry: a.entry, Warnings: append([]string(nil), a.warns...)}
	if a.hi >= a.lo {
		r.Org = uint16(a.lo)
		r.Bytes = append([]byte(nil), a.mem[a.lo:a.hi+1]...)
		r.Written = append([]bool(nil), a.used[a.lo:a.hi+1]...)
	} else {
		r.Bytes = []byte{}
	}
	for k, s := range a.syms {
		if s.pass == a.pass && !strings.HasPrefix(k, localPrefix) {
			r.Symbols[k] = s.val
			if s.kind == symDefl {
				if r.defl == nil {
					r.defl = map[string]bool{}
				}
				r.defl[k] = true
			}
			if s.kind == symLabel {
				if r.labels == nil {
					r.labels = map[string]bool{}
				}
				r.labels[k] = true
			}
		}
	}
	r.Listing = a.listing
	return r
}

// load reads and splits a source file, caching it for later passes.
func (a *assembler) load(name string) ([]srcLine, error) {
	if l, ok := a.files[name]; ok {
		return l, nil
	}
	data, err := readBounded(a.fsys, name, maxSourceBytes)
	if err != nil {
		return nil, err
	}
	text := strings.Split(string(data), "\n")
	if len(text) > 0 && text[len(text)-1] == "" {
		text = text[:len(text)-1]
	}
	lines := make([]srcLine, len(text))
	for i, t := range text {
		lines[i] = srcLine{text: strings.TrimSuffix(t, "\r"), file: name, line: i + 1}
	}
	a.files[name] = lines
	return lines, nil
}

// errorf records an error at the current line.
func (a *assembler) errorf(col int, format string, args ...any) {
	a.errAt(a.cur, col, fmt.Sprintf(format, args...))
}

func (a *assembler) errAt(l srcLine, col int, msg string) {
	if len(a.errs) >= maxErrors {
		return
	}
	if col < 1 {
		col = 1
	}
	for e := a.curExp; e != nil; e = e.parent {
		if e.desc != "" {
			msg += " (in " + e.desc + ")"
			break
		}
	}
	a.errs = append(a.errs, &Error{File: l.file, Line: l.line, Col: col, Msg: msg})
}

// hardf records an error that does not depend on symbol values.
func (a *assembler) hardf(col int, format string, args ...any) {
	a.errAt(a.cur, col, errHard+fmt.Sprintf(format, args...))
}

// --- symbols -------------------------------------------------------------

func (a *assembler) resolveName(name string) string {
	for i := len(a.scopes) - 1; i >= 0; i-- {
		if n, ok := a.scopes[i].names[name]; ok {
			return n
		}
	}
	if a.opts.AutoLocal && name[0] == '_' {
		return localPrefix + "A" + strconv.Itoa(a.autoSeq) + name
	}
	return name
}

// endAutoLocal closes the ambit of autolocal '_' labels (pasmo --alocal):
// at a non-local label and at PROC, LOCAL, MACRO, ENDP and ENDM.
func (a *assembler) endAutoLocal() { a.autoSeq++ }

func (a *assembler) lookup(name string, col int) (int64, *lexError) {
	s, ok := a.syms[a.resolveName(name)]
	if !ok || s.pass < a.pass-1 {
		return 0, &lexError{col, "undefined symbol " + quote(name)}
	}
	return s.val, nil
}

func (a *assembler) isDefined(name string) bool {
	s, ok := a.syms[a.resolveName(name)]
	return ok && s.pass == a.pass
}

func (a *assembler) dollar() int64 { return a.stmtPC }

func (a *assembler) define(name string, col int, val int64, kind symKind) {
	if isReserved(strings.ToUpper(name)) {
		a.hardf(col, "%s is a reserved word and cannot be a label", quote(name))
		return
	}
	key := a.resolveName(name)
	val &= 0xFFFF
	s, ok := a.syms[key]
	if ok && s.pass == a.pass {
		if kind == symDefl && s.kind == symDefl {
			s.val = val
			return
		}
		where := s.file
		switch {
		case s.file == a.cur.file:
			where = fmt.Sprintf("line %d", s.line)
		case s.line > 0:
			where = fmt.Sprintf("%s:%d", s.file, s.line)
		}
		a.hardf(col, "duplicate symbol %s (first defined at %s)", quote(name), where)
		return
	}
	if !ok {
		s = &symbol{}
		a.syms[key] = s
	}
	*s = symbol{val: val, kind: kind, pass: a.pass, file: a.cur.file, line: a.cur.line}
}

func hex16(v int64) string { return fmt.Sprintf("%04Xh", v&0xFFFF) }

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
