package asm

import (
	"fmt"
	"strings"
)

// Expr is an expression compiled for a tool outside the assembler, such as
// the debugger's breakpoint conditions ("HL == buffer+200h && A = 0DH").
// It uses the assembler's own parser and arithmetic (16-bit unsigned, true
// is FFFFh), so a condition means what it would mean in a source file, with
// two additions: register names (A, HL, IX, F, ...) are symbols the
// environment answers, and PEEK(addr) / PEEKW(addr) read a byte / a
// little-endian word of memory.
type Expr struct {
	src string
	e   *expr
}

// ExprEnv supplies what an Expr reads when evaluated.
type ExprEnv interface {
	// Symbol returns the value of a name: a register (upper case, e.g. "HL")
	// or a program symbol; false if it is unknown.
	Symbol(name string) (int64, bool)
	// Peek reads memory as the CPU sees it, without side effects.
	Peek(addr uint16) uint8
}

// ParseExpr compiles an expression. Errors name the column.
func ParseExpr(src string) (*Expr, error) {
	toks, lerr := lexLine(src, nil)
	if lerr != nil {
		return nil, fmt.Errorf("expression %q: column %d: %s", src, lerr.col, lerr.msg)
	}
	p := &exprParser{toks: toks, debug: true}
	if len(toks) == 0 {
		return nil, fmt.Errorf("expression %q: empty", src)
	}
	e := p.cond()
	if p.err == nil && p.pos < len(toks) {
		t := &toks[p.pos]
		p.fail(t.col, "unexpected "+tokDesc(t)+" in expression")
	}
	if p.err != nil {
		return nil, fmt.Errorf("expression %q: column %d: %s", src, p.err.col, p.err.msg)
	}
	return &Expr{src: strings.TrimSpace(src), e: e}, nil
}

// String returns the source text.
func (x *Expr) String() string { return x.src }

// Eval computes the expression's 16-bit value.
func (x *Expr) Eval(env ExprEnv) (uint16, error) {
	v, err := eval(x.e, envCtx{env})
	if err != nil {
		return 0, fmt.Errorf("expression %q: column %d: %s", x.src, err.col, err.msg)
	}
	return uint16(v), nil
}

// envCtx adapts an ExprEnv to the evaluator's context. $ has no meaning
// outside a source file: it is an error.
type envCtx struct{ env ExprEnv }

func (c envCtx) lookup(name string, col int) (int64, *lexError) {
	if v, ok := c.env.Symbol(name); ok {
		return v, nil
	}
	return 0, &lexError{col, "unknown symbol " + quote(name)}
}

func (c envCtx) isDefined(name string) bool {
	_, ok := c.env.Symbol(name)
	return ok
}

func (c envCtx) dollar() int64 { return 0 }

func (c envCtx) peek(addr uint16) int64 { return int64(c.env.Peek(addr)) }

// debugPrimary handles the debugger's additions in primary position: a
// register name becomes a symbol, PEEK/PEEKW a memory read. ok is false
// for anything else.
func (p *exprParser) debugPrimary(t *token) (*expr, bool) {
	switch {
	case isRegisterWord(t.up) || t.up == "F":
		p.pos++
		return &expr{op: eSym, name: t.up, col: t.col}, true
	case t.up == "PEEK" || t.up == "PEEKW":
		p.pos++
		op := ePeek
		if t.up == "PEEKW" {
			op = ePeekW
		}
		return &expr{op: op, a: p.primary(), col: t.col}, true
	}
	return nil, false
}

// memCtx is an evalCtx that can read memory (only the debugger's).
type memCtx interface {
	peek(addr uint16) int64
}

func evalPeek(e *expr, c evalCtx, a int64) (int64, *lexError) {
	m, ok := c.(memCtx)
	if !ok {
		return 0, &lexError{e.col, "PEEK is only for debugger expressions"}
	}
	v := m.peek(uint16(a))
	if e.op == ePeekW {
		v |= m.peek(uint16(a+1)) << 8
	}
	return v, nil
}
