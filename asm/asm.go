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
	localPrefix   = "#L"
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
	data, err := fs.ReadFile(a.fsys, name)
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

// --- line processing -----------------------------------------------------

type condState struct {
	active   bool // this branch assembles
	parentOn bool // the enclosing code assembles
	seenElse bool
	taken    bool
	line     srcLine
}

// keyword finds the directive/mnemonic word of a lexed line for block
// scanning: after "label:" or "label" it is the first reserved word.
func keyword(toks []token) (string, int) {
	i := 0
	if len(toks) > 0 && toks[0].kind == tNum && toks[0].col == 1 {
		i = 1 // leading line number
	}
	if len(toks) > i+1 && toks[i].kind == tIdent && toks[i+1].kind == tOp && toks[i+1].text == ":" {
		i += 2
	}
	if i < len(toks) && toks[i].kind == tIdent && isReserved(toks[i].up) {
		return toks[i].up, i
	}
	if i+1 < len(toks) && toks[i].kind == tIdent && toks[i+1].kind == tIdent && isDirective(toks[i+1].up) {
		return toks[i+1].up, i + 1
	}
	return "", -1
}

func (a *assembler) lexQuiet(text string) []token {
	toks, _ := lexLine(text, a.toks)
	a.toks = toks
	return toks
}

// runLines assembles a sequence of lines (a file or an expansion body).
func (a *assembler) runLines(lines []srcLine, exp *expansion) {
	saveExp := a.curExp
	a.curExp = exp
	defer func() { a.curExp = saveExp }()
	var conds []condState
	on := true
	for i := 0; i < len(lines); i++ {
		if a.ended || (exp != nil && exp.exit) {
			return
		}
		a.lines++
		a.totalLines++
		if a.lines > maxLinesPass || a.totalLines > maxLinesTotal {
			if !a.budgetX {
				a.budgetX = true
				a.cur = lines[i]
				if a.lines > maxLinesPass {
					a.hardf(1, "more than %d lines expanded: endless REPT or MACRO?", maxLinesPass)
				} else {
					a.hardf(1, "more than %d lines assembled over all passes: symbol values do not settle", maxLinesTotal)
				}
				a.fatal = true
			}
			a.ended = true
			return
		}
		l := lines[i]
		if exp != nil {
			l.text = substitute(l.text, exp)
		}
		a.cur = l
		toks, lerr := lexLine(l.text, nil)
		kw, _ := keyword(toks)
		switch kw {
		case "IF", "IFDEF", "IFNDEF":
			c := condState{parentOn: on, line: l}
			if on {
				c.active = a.condition(l, kw)
				c.taken = c.active
			}
			conds = append(conds, c)
			on = c.active
			a.list(l, false, nil)
			continue
		case "ELSE":
			if len(conds) == 0 {
				a.hardf(1, "ELSE without IF")
				continue
			}
			c := &conds[len(conds)-1]
			if c.seenElse {
				a.hardf(1, "second ELSE for the IF at line %d", c.line.line)
			}
			c.seenElse = true
			c.active = c.parentOn && !c.taken
			c.taken = c.taken || c.active
			on = c.active
			a.list(l, false, nil)
			continue
		case "ENDIF":
			if len(conds) == 0 {
				a.hardf(1, "ENDIF without IF")
				continue
			}
			on = conds[len(conds)-1].parentOn
			conds = conds[:len(conds)-1]
			a.list(l, false, nil)
			continue
		}
		if !on {
			continue
		}
		switch kw {
		case "MACRO", "REPT", "IRP":
			end := findEndm(lines, i+1, a)
			if end < 0 {
				a.hardf(1, "%s without ENDM", kw)
				return
			}
			body := lines[i+1 : end]
			a.block(l, kw, body, exp)
			a.cur = lines[end]
			a.list(lines[end], false, nil)
			i = end
			continue
		case "ENDM":
			a.hardf(1, "ENDM without MACRO, REPT or IRP")
			continue
		}
		a.statement(l, toks, lerr)
	}
	if len(conds) > 0 && exp == nil {
		a.cur = conds[len(conds)-1].line
		a.hardf(1, "IF without ENDIF")
	}
}

// findEndm returns the index of the ENDM closing a block whose body starts at i.
func findEndm(lines []srcLine, i int, a *assembler) int {
	depth := 1
	for ; i < len(lines); i++ {
		kw, _ := keyword(a.lexQuiet(lines[i].text))
		switch kw {
		case "MACRO", "REPT", "IRP":
			depth++
		case "ENDM":
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

func (a *assembler) condition(l srcLine, kw string) bool {
	toks, lerr := lexLine(l.text, nil)
	if lerr != nil {
		a.hardf(lerr.col, "%s", lerr.msg)
		return false
	}
	_, k := keyword(toks)
	args := toks[k+1:]
	if kw != "IF" {
		if len(args) != 1 || args[0].kind != tIdent {
			a.hardf(toks[k].col, "%s needs one symbol name", kw)
			return false
		}
		d := a.isDefined(args[0].text)
		return d == (kw == "IFDEF")
	}
	if len(args) == 0 {
		a.hardf(toks[k].col, "IF needs an expression")
		return false
	}
	e, err := parseExpr(args)
	if err != nil {
		a.hardf(err.col, "%s", err.msg)
		return false
	}
	a.stmtPC = a.pc
	v, err := eval(e, a)
	if err != nil {
		a.errorf(err.col, "%s", err.msg)
		return false
	}
	return v != 0
}

// splitArgs splits raw operand text at top-level commas.
func splitArgs(s string) []string {
	var out []string
	depth := 0
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\'', '"':
			if c == '\'' && i >= 2 && strings.EqualFold(s[i-2:i], "af") {
				continue
			}
			j := i + 1
			for j < len(s) && s[j] != c {
				if c == '"' && s[j] == '\\' {
					j++
				}
				j++
			}
			i = j
		case '(', '[', '<':
			depth++
		case ')', ']', '>':
			depth--
		case ',':
			if depth <= 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		case ';':
			out = append(out, strings.TrimSpace(s[start:i]))
			return out
		}
	}
	out = append(out, strings.TrimSpace(s[start:]))
	if len(out) == 1 && out[0] == "" {
		return nil
	}
	return out
}

// substitute replaces macro parameters in a body line, outermost expansion
// first, then removes ## pasting marks.
func substitute(text string, exp *expansion) string {
	if exp == nil {
		return text
	}
	text = substitute(text, exp.parent)
	if len(exp.params) == 0 {
		return text
	}
	var b strings.Builder
	changed := false
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == ';':
			b.WriteString(text[i:])
			i = len(text)
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(text) && text[j] != c {
				if c == '"' && text[j] == '\\' {
					j++
				}
				j++
			}
			if j < len(text) {
				j++
			}
			if j > len(text) {
				j = len(text)
			}
			b.WriteString(text[i:j])
			i = j
		case isIdentStart(c):
			j := i
			for j < len(text) && isIdentChar(text[j]) {
				j++
			}
			w := text[i:j]
			rep := false
			for k, p := range exp.params {
				if p == w {
					if k < len(exp.args) {
						b.WriteString(exp.args[k])
					}
					rep, changed = true, true
					break
				}
			}
			if !rep {
				b.WriteString(w)
			}
			if strings.EqualFold(w, "af") && j < len(text) && text[j] == '\'' {
				b.WriteByte('\'')
				j++
			}
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(text) && isIdentChar(text[j]) {
				j++
			}
			b.WriteString(text[i:j])
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	if !changed && !strings.Contains(text, "##") {
		return text
	}
	return strings.ReplaceAll(b.String(), "##", "")
}

// block handles MACRO definitions and REPT/IRP repetitions.
func (a *assembler) block(l srcLine, kw string, body []srcLine, exp *expansion) {
	toks, lerr := lexLine(l.text, nil)
	if lerr != nil {
		a.hardf(lerr.col, "%s", lerr.msg)
		return
	}
	_, k := keyword(toks)
	// Text after the keyword, for parameter lists.
	rest := ""
	if k+1 < len(toks) {
		rest = l.text[toks[k+1].col-1:]
	}
	args := splitArgs(rest)
	switch kw {
	case "MACRO":
		var name string
		var nameCol int
		if k > 0 {
			name, nameCol = toks[0].text, toks[0].col
			if toks[0].kind != tIdent {
				a.hardf(toks[0].col, "macro name expected")
				return
			}
		} else {
			if len(args) == 0 {
				a.hardf(toks[k].col, "MACRO needs a name")
				return
			}
			name, nameCol = args[0], toks[k+1].col
			args = args[1:]
		}
		if isReserved(strings.ToUpper(name)) {
			a.hardf(nameCol, "%s is a reserved word and cannot name a macro", quote(name))
			return
		}
		if _, dup := a.macros[name]; dup {
			a.hardf(nameCol, "macro %s defined twice", quote(name))
			return
		}
		for _, p := range args {
			if p == "" || !isIdentStart(p[0]) {
				a.hardf(nameCol, "bad macro parameter %s", quote(p))
				return
			}
		}
		a.macros[name] = &macroDef{name: name, params: args, body: body, file: l.file, line: l.line}
		a.list(l, false, nil)
	case "REPT":
		a.list(l, false, nil)
		if len(args) == 0 {
			a.hardf(toks[k].col, "REPT needs a count")
			return
		}
		vals := make([]int64, 3)
		vals[2] = 1
		for i, s := range args {
			if i == 1 {
				continue
			}
			if i > 3 {
				a.hardf(toks[k].col, "too many REPT operands")
				return
			}
			idx := i
			if i >= 2 {
				idx = i - 1
			}
			v, ok := a.evalText(s, toks[k+1].col)
			if !ok {
				return
			}
			vals[idx] = v
		}
		count := vals[0]
		if count > maxReptCount {
			a.hardf(toks[k].col, "REPT count %d too large", count)
			return
		}
		var loopVar string
		if len(args) > 1 {
			loopVar = args[1]
		}
		if !a.enter(toks[k].col) {
			return
		}
		defer a.leave()
		x := &expansion{parent: exp}
		val := vals[1]
		for i := int64(0); i < count && !x.exit && !a.ended; i++ {
			a.pushScope()
			if loopVar != "" {
				a.declareLocal(loopVar)
				a.define(loopVar, toks[k].col, val, symDefl)
				val += vals[2]
			}
			a.runLines(body, x)
			a.popScope()
		}
	case "IRP":
		a.list(l, false, nil)
		if len(args) == 0 {
			a.hardf(toks[k].col, "IRP needs a parameter name")
			return
		}
		if !a.enter(toks[k].col) {
			return
		}
		defer a.leave()
		for _, arg := range args[1:] {
			arg = strings.TrimSuffix(strings.TrimPrefix(arg, "<"), ">")
			x := &expansion{parent: exp, params: []string{args[0]}, args: []string{arg}}
			a.pushScope()
			a.runLines(body, x)
			a.popScope()
			if x.exit || a.ended {
				break
			}
		}
	}
}

func (a *assembler) enter(col int) bool {
	if a.depth >= maxDepth {
		a.hardf(col, "nesting deeper than %d levels (recursive MACRO or INCLUDE?)", maxDepth)
		return false
	}
	a.depth++
	return true
}

func (a *assembler) leave() { a.depth-- }

func (a *assembler) pushScope() { a.scopes = append(a.scopes, &scope{names: map[string]string{}}) }

func (a *assembler) popScope() {
	if len(a.scopes) > 0 {
		a.scopes = a.scopes[:len(a.scopes)-1]
	}
}

func (a *assembler) declareLocal(name string) {
	if len(a.scopes) == 0 {
		return
	}
	sc := a.scopes[len(a.scopes)-1]
	if _, ok := sc.names[name]; ok {
		return
	}
	a.localSeq++
	sc.names[name] = fmt.Sprintf("%s%08X", localPrefix, a.localSeq)
}

func (a *assembler) evalText(s string, col int) (int64, bool) {
	toks, lerr := lexLine(s, nil)
	if lerr != nil {
		a.hardf(col+lerr.col-1, "%s", lerr.msg)
		return 0, false
	}
	for i := range toks {
		toks[i].col += col - 1
	}
	e, err := parseExpr(toks)
	if err != nil {
		a.hardf(err.col, "%s", err.msg)
		return 0, false
	}
	a.stmtPC = a.pc
	v, err := eval(e, a)
	if err != nil {
		a.errorf(err.col, "%s", err.msg)
		return 0, false
	}
	return v, true
}

// list appends a listing line.
func (a *assembler) list(l srcLine, hasAddr bool, b []byte) {
	a.listing = append(a.listing, ListLine{File: l.file, Line: l.line, Addr: uint16(a.stmtPC), HasAddr: hasAddr, Bytes: b, Text: l.text, Depth: a.depth})
}

// emit writes bytes at the physical address and advances $.
func (a *assembler) emit(b []byte) {
	for _, v := range b {
		p := a.pc + a.phaseOff
		if p < 0 || p > 0xFFFF {
			if !a.overrun {
				a.overrun = true
				a.errorf(1, "code runs past address FFFFh")
			}
			a.pc += int64(len(b))
			return
		}
		a.mem[p] = v
		a.used[p] = true
		if int(p) < a.lo {
			a.lo = int(p)
		}
		if int(p) > a.hi {
			a.hi = int(p)
		}
		a.pc++
	}
}

// statement assembles one active line that is not a block or IF construct.
func (a *assembler) statement(l srcLine, toks []token, lerr *lexError) {
	a.stmtPC = a.pc
	if lerr != nil {
		// INCLUDE/INCBIN take raw file names that need not lex.
		if kw, _ := keyword(toks); kw != "INCLUDE" && kw != "INCBIN" {
			a.hardf(lerr.col, "%s", lerr.msg)
			a.list(l, false, nil)
			return
		}
	}
	i := 0
	if len(toks) > 0 && toks[0].kind == tNum && toks[0].col == 1 {
		i = 1
	}
	if i >= len(toks) {
		a.list(l, false, nil)
		return
	}
	// Label detection.
	var label *token
	t0 := &toks[i]
	if t0.kind == tIdent {
		switch {
		case i+1 < len(toks) && toks[i+1].kind == tOp && toks[i+1].text == ":":
			label = t0
			i += 2
		case isReserved(t0.up):
		case a.macros[t0.text] != nil && !(i+1 < len(toks) && toks[i+1].kind == tIdent && isDirective(toks[i+1].up)):
		default:
			next := (*token)(nil)
			if i+1 < len(toks) {
				next = &toks[i+1]
			}
			// An indented lone word is far more often a mistyped
			// instruction than a label without its colon (pasmo takes it
			// as a label), and a register after a column-1 word means the
			// word was meant as an instruction.
			wordNext := next != nil && next.kind == tIdent && (mnemonics[next.up] || isDirective(next.up) || a.macros[next.text] != nil)
			opNext := next != nil && next.kind == tOp && next.text == "="
			regNext := next != nil && next.kind == tIdent && isReserved(next.up) && !wordNext
			if (t0.col == 1 && !regNext) || wordNext || opNext {
				label = t0
				i++
			} else {
				a.hardf(t0.col, "unknown instruction %s", quote(t0.text))
				a.list(l, false, nil)
				return
			}
		}
	}
	if i >= len(toks) {
		if label != nil {
			a.define(label.text, label.col, a.pc, symLabel)
			if label.text[0] != '_' {
				a.endAutoLocal()
			}
		}
		a.list(l, label != nil, nil)
		return
	}
	w := &toks[i]
	ops := toks[i+1:]
	word := w.up
	if w.kind == tOp && w.text == "=" {
		word = "="
	} else if w.kind != tIdent {
		a.hardf(w.col, "instruction or directive expected, found %s", tokDesc(w))
		a.list(l, false, nil)
		return
	}
	switch word {
	case "EQU", "=", "DEFL":
		if label == nil {
			a.hardf(w.col, "%s needs a label", w.text)
			a.list(l, false, nil)
			return
		}
		kind := symEqu
		if word != "EQU" {
			kind = symDefl
		}
		v, ok := a.exprOps(ops, w)
		if !ok {
			a.list(l, false, nil)
			return
		}
		a.define(label.text, label.col, v, kind)
		a.stmtPC = v
		a.list(l, true, nil)
		return
	}
	if label != nil {
		a.define(label.text, label.col, a.pc, symLabel)
		if label.text[0] != '_' {
			a.endAutoLocal()
		}
	}
	if mnemonics[word] {
		a.instruction(l, w, ops)
		return
	}
	start := a.pc
	var emitted []byte
	emitMark := len(a.listing)
	switch word {
	case "ORG":
		if v, ok := a.exprOps(ops, w); ok {
			a.pc = v
			a.stmtPC = v
			a.list(l, true, nil)
			return
		}
	case "PHASE":
		if v, ok := a.exprOps(ops, w); ok {
			a.phaseOff = a.pc + a.phaseOff - v
			a.pc = v
			a.stmtPC = v
			a.list(l, true, nil)
			return
		}
	case "DEPHASE", "UNPHASE":
		a.pc += a.phaseOff
		a.phaseOff = 0
	case "DB", "DEFB", "DEFM", "DM", "BYTE":
		emitted = a.dataBytes(w, ops)
	case "DW", "DEFW", "WORD":
		emitted = a.dataWords(w, ops)
	case "DS", "DEFS", "BLOCK":
		emitted = a.dataSpace(w, ops)
	case "END":
		if len(ops) > 0 {
			if v, ok := a.exprOps(ops, w); ok {
				a.entry = v
			}
		}
		a.list(l, false, nil)
		a.ended = true
		return
	case "INCLUDE":
		a.list(l, false, nil)
		a.include(l, w)
		return
	case "INCBIN":
		emitted = a.incbin(l, w)
	case "LOCAL":
		a.endAutoLocal()
		if len(a.scopes) == 0 {
			a.hardf(w.col, "LOCAL outside MACRO, REPT, IRP or PROC")
			break
		}
		for _, op := range splitOps(ops) {
			if len(op) != 1 || op[0].kind != tIdent {
				a.hardf(w.col, "LOCAL needs symbol names")
				break
			}
			a.declareLocal(op[0].text)
		}
	case "PROC":
		a.endAutoLocal()
		a.pushScope()
	case "ENDP":
		a.endAutoLocal()
		a.popScope()
	case "PUBLIC":
	case "EXITM":
		// Ends the innermost MACRO, REPT or IRP only, as in pasmo.
		if a.curExp != nil {
			a.curExp.exit = true
		} else {
			a.hardf(w.col, "EXITM outside MACRO, REPT or IRP")
		}
	case ".SHIFT":
		// Shifts the arguments of the innermost MACRO, also from inside a
		// REPT or IRP within it.
		e := a.curExp
		for e != nil && e.desc == "" {
			e = e.parent
		}
		if e == nil {
			a.hardf(w.col, ".SHIFT outside MACRO")
		} else if len(e.args) > 0 {
			e.args = e.args[1:]
		}
	case ".ERROR":
		a.hardf(w.col, "%s", strings.TrimSpace(restOf(l.text, ops)))
	case ".WARNING":
		a.warns = append(a.warns, fmt.Sprintf("%s:%d: %s", l.file, l.line, strings.TrimSpace(restOf(l.text, ops))))
	default:
		if m := a.macros[w.text]; m != nil {
			a.list(l, label != nil, nil)
			a.callMacro(l, w, m, ops)
			return
		}
		if isDirective(word) {
			a.hardf(w.col, "%s is not allowed here", w.text)
		} else {
			a.hardf(w.col, "unknown instruction %s", quote(w.text))
		}
	}
	if len(a.listing) == emitMark {
		a.list(l, label != nil || a.pc > start, emitted)
	}
}

func restOf(text string, ops []token) string {
	if len(ops) == 0 {
		return ""
	}
	s := text[ops[0].col-1:]
	return s
}

// splitOps splits tokens at top-level commas.
func splitOps(toks []token) [][]token {
	if len(toks) == 0 {
		return nil
	}
	var out [][]token
	depth, start := 0, 0
	for i, t := range toks {
		if t.kind != tOp {
			continue
		}
		switch t.text {
		case "(", "[":
			depth++
		case ")", "]":
			depth--
		case ",":
			if depth == 0 {
				out = append(out, toks[start:i])
				start = i + 1
			}
		}
	}
	return append(out, toks[start:])
}

// exprOps evaluates a single-expression operand list.
func (a *assembler) exprOps(ops []token, w *token) (int64, bool) {
	if len(ops) == 0 {
		a.hardf(w.col, "%s needs an operand", w.text)
		return 0, false
	}
	e, err := parseExpr(ops)
	if err != nil {
		a.hardf(err.col, "%s", err.msg)
		return 0, false
	}
	v, err := eval(e, a)
	if err != nil {
		a.errorf(err.col, "%s", err.msg)
		return 0, false
	}
	return v, true
}

func (a *assembler) dataBytes(w *token, ops []token) []byte {
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
		if len(p) == 1 && p[0].kind == tStr && len(p[0].str) != 1 {
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
		} else if v > 0xFF && v < 0xFF00 {
			a.errorf(p[0].col, "value %s out of range for a byte", hex16(v))
		}
		out = append(out, byte(v))
	}
	a.emit(out)
	return out
}

func (a *assembler) dataWords(w *token, ops []token) []byte {
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
		e, err := parseExpr(p)
		if err != nil {
			a.hardf(err.col, "%s", err.msg)
			return nil
		}
		v, err := eval(e, a)
		if err != nil {
			a.errorf(err.col, "%s", err.msg)
		}
		out = append(out, byte(v), byte(v>>8))
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
	name = strings.TrimPrefix(name, "/")
	cands := []string{path.Join(path.Dir(a.cur.file), name)}
	for _, d := range a.opts.IncludeDirs {
		cands = append(cands, path.Join(strings.TrimPrefix(d, "/"), name))
	}
	cands = append(cands, path.Clean(name))
	for _, c := range cands {
		if !fs.ValidPath(c) {
			continue
		}
		if st, err := fs.Stat(a.fsys, c); err == nil && !st.IsDir() {
			return c, true
		}
	}
	return "", false
}

func (a *assembler) include(l srcLine, w *token) {
	name, ok := fileArg(l.text, w)
	if !ok {
		a.hardf(w.col, "INCLUDE needs a file name")
		return
	}
	p, ok := a.findFile(name)
	if !ok {
		a.hardf(w.col+len(w.text)+1, "INCLUDE file %s not found", quote(name))
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
		a.hardf(w.col+len(w.text)+1, "INCBIN file %s not found", quote(name))
		return nil
	}
	data, err := fs.ReadFile(a.fsys, p)
	if err != nil {
		a.hardf(w.col, "cannot read INCBIN file %s: %s", quote(name), errText(err))
		return nil
	}
	if len(data) > 0x10000 {
		a.hardf(w.col, "INCBIN file %s is larger than 64K", quote(name))
		return nil
	}
	a.emit(data)
	return data
}

func (a *assembler) callMacro(l srcLine, w *token, m *macroDef, ops []token) {
	if !a.enter(w.col) {
		return
	}
	defer a.leave()
	rest := ""
	if len(ops) > 0 {
		rest = l.text[ops[0].col-1:]
	}
	args := splitArgs(rest)
	for i, s := range args {
		if len(s) >= 2 && s[0] == '<' && s[len(s)-1] == '>' {
			args[i] = s[1 : len(s)-1]
		}
	}
	x := &expansion{params: m.params, args: args, desc: fmt.Sprintf("macro %s called at %s:%d", m.name, l.file, l.line)}
	a.endAutoLocal()
	a.pushScope()
	a.runLines(m.body, x)
	a.popScope()
	a.endAutoLocal()
}

func (a *assembler) instruction(l srcLine, w *token, ops []token) {
	parts := splitOps(ops)
	operands := make([]operand, 0, 3)
	for _, p := range parts {
		if len(p) == 0 {
			a.hardf(w.col, "empty operand")
			a.list(l, false, nil)
			return
		}
		o, err := parseOperand(p)
		if err != nil {
			a.hardf(err.col, "%s", err.msg)
			a.list(l, false, nil)
			return
		}
		operands = append(operands, o)
	}
	enc := encoder{a: a, pc: a.pc, mcol: w.col}
	enc.encode(w.up, operands)
	if enc.err != nil {
		msg := enc.err.msg
		if msg == "invalid operand" || strings.HasPrefix(msg, "wrong number") || strings.HasPrefix(msg, "unknown") ||
			strings.Contains(msg, "needs") || strings.Contains(msg, "takes no") || strings.Contains(msg, "expected") {
			a.hardf(enc.err.col, "%s", msg)
		} else {
			a.errorf(enc.err.col, "%s", msg)
		}
	}
	a.emit(enc.buf)
	ll := ListLine{File: l.file, Line: l.line, Addr: uint16(a.stmtPC), HasAddr: true, Bytes: enc.buf, Text: l.text, Depth: a.depth}
	ll.TStates = tstates(enc.buf)
	a.listing = append(a.listing, ll)
}

func hex16(v int64) string { return fmt.Sprintf("%04Xh", v&0xFFFF) }

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
