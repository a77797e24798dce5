package asm

// Line processing: IF/ELSE/ENDIF, block detection, label rules and
// dispatch of one statement to directives or the instruction encoder.

import (
	"fmt"
	"strings"
)

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

// spend charges one unit of work (a line assembled, or one repetition of a
// REPT or IRP body, which costs as much even when the body is empty) to the
// pass and to the whole assembly, and stops the assembly with one error
// when a budget is spent: work, not output, bounds an expansion.
func (a *assembler) spend(at srcLine) bool {
	a.lines++
	a.totalLines++
	if a.lines <= a.maxLinesPass() && a.totalLines <= a.maxLinesTotal() {
		return true
	}
	if !a.budgetX {
		a.budgetX = true
		a.cur = at
		if a.lines > a.maxLinesPass() {
			a.hardf(1, "more than %d lines or repetitions expanded: endless REPT or MACRO?", a.maxLinesPass())
		} else {
			a.hardf(1, "more than %d lines assembled over all passes: symbol values do not settle", a.maxLinesTotal())
		}
		a.fatal = true
	}
	a.ended = true
	return false
}

func (a *assembler) maxLinesPass() int {
	if a.opts.MaxLines > 0 {
		return a.opts.MaxLines
	}
	return maxLinesPass
}

func (a *assembler) maxLinesTotal() int {
	if a.opts.MaxLines > 0 {
		return 4 * a.opts.MaxLines
	}
	return maxLinesTotal
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
		if !a.spend(lines[i]) {
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
		emitted = a.dataList(w, ops, 1)
	case "DW", "DEFW", "WORD":
		emitted = a.dataList(w, ops, 2)
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
	if enc.warn != "" && enc.err == nil {
		a.warns = append(a.warns, fmt.Sprintf("%s:%d: %s", l.file, l.line, enc.warn))
	}
	a.emit(enc.buf)
	ll := ListLine{File: l.file, Line: l.line, Addr: uint16(a.stmtPC), HasAddr: true, Bytes: enc.buf, Text: l.text, Depth: a.depth}
	ll.TStates = tstates(enc.buf)
	a.listing = append(a.listing, ll)
}
