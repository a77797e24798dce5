package asm

// Expressions follow pasmo: every value is a 16-bit unsigned number, true is
// FFFFh, and the precedence, lowest first, is
//
//	?:   HIGH LOW   ||   &&   OR | XOR ^   AND &   NOT ~ ! unary+ unary-
//	= == EQ != <> NE < LT <= LE > GT >= GE   + -   * / MOD % SHL SHR << >>
//
// so "-1+2" is -(1+2) and "NOT 0+1" is NOT(1), exactly as pasmo evaluates
// them. Where pasmo rejects a unary operator directly after a binary one
// ("2*-3"), lbplus binds it to the following operand only.

type exprOp uint8

const (
	eNum exprOp = iota
	eSym
	eDollar
	eDefined
	eNeg
	eNot
	eLNot
	eHigh
	eLow
	eAdd
	eSub
	eMul
	eDiv
	eMod
	eShl
	eShr
	eAnd
	eOr
	eXor
	eEq
	eNe
	eLt
	eLe
	eGt
	eGe
	eLAnd
	eLOr
	eCond
	ePeek // debugger expressions only (debugexpr.go)
	ePeekW
)

type expr struct {
	op      exprOp
	a, b, c *expr
	val     int64
	name    string
	col     int
}

// exprParser parses a token slice.
type exprParser struct {
	toks  []token
	pos   int
	err   *lexError
	debug bool // registers and PEEK allowed (ParseExpr)
}

func (p *exprParser) peek() *token {
	if p.pos < len(p.toks) {
		return &p.toks[p.pos]
	}
	return nil
}

func (p *exprParser) fail(col int, msg string) *expr {
	if p.err == nil {
		p.err = &lexError{col, msg}
	}
	return &expr{op: eNum}
}

func (p *exprParser) endCol() int {
	if len(p.toks) == 0 {
		return 1
	}
	return p.toks[len(p.toks)-1].col + 1
}

func (p *exprParser) isOp(t *token, ops ...string) bool {
	if t == nil || t.kind != tOp {
		return false
	}
	for _, o := range ops {
		if t.text == o {
			return true
		}
	}
	return false
}

func (p *exprParser) isWord(t *token, w string) bool {
	return t != nil && t.kind == tIdent && t.up == w
}

// parseExpr parses a whole expression from toks; it is an error if tokens remain.
func parseExpr(toks []token) (*expr, *lexError) {
	p := &exprParser{toks: toks}
	if len(toks) == 0 {
		return nil, &lexError{1, "expression expected"}
	}
	e := p.cond()
	if p.err == nil && p.pos < len(toks) {
		t := &toks[p.pos]
		p.fail(t.col, "unexpected "+tokDesc(t)+" in expression")
	}
	if p.err != nil {
		return nil, p.err
	}
	return e, nil
}

func tokDesc(t *token) string {
	switch t.kind {
	case tIdent:
		return quote(t.text)
	case tNum:
		return "number " + quote(t.text)
	case tStr:
		return "string"
	case tDollar:
		return "'$'"
	}
	return quote(t.text)
}

func (p *exprParser) cond() *expr {
	e := p.highLow()
	if t := p.peek(); p.isOp(t, "?") {
		col := t.col
		p.pos++
		a := p.cond()
		if !p.isOp(p.peek(), ":") {
			return p.fail(p.curCol(), "':' expected in conditional expression")
		}
		p.pos++
		b := p.cond()
		return &expr{op: eCond, a: e, b: a, c: b, col: col}
	}
	return e
}

func (p *exprParser) curCol() int {
	if t := p.peek(); t != nil {
		return t.col
	}
	return p.endCol()
}

func (p *exprParser) highLow() *expr {
	t := p.peek()
	if p.isWord(t, "HIGH") || p.isWord(t, "LOW") {
		p.pos++
		op := eHigh
		if t.up == "LOW" {
			op = eLow
		}
		return &expr{op: op, a: p.highLow(), col: t.col}
	}
	return p.lor()
}

func (p *exprParser) lor() *expr {
	e := p.land()
	for {
		t := p.peek()
		if !p.isOp(t, "||") {
			return e
		}
		p.pos++
		e = &expr{op: eLOr, a: e, b: p.land(), col: t.col}
	}
}

func (p *exprParser) land() *expr {
	e := p.bor()
	for {
		t := p.peek()
		if !p.isOp(t, "&&") {
			return e
		}
		p.pos++
		e = &expr{op: eLAnd, a: e, b: p.bor(), col: t.col}
	}
}

func (p *exprParser) bor() *expr {
	e := p.band()
	for {
		t := p.peek()
		var op exprOp
		switch {
		case p.isOp(t, "|") || p.isWord(t, "OR"):
			op = eOr
		case p.isOp(t, "^") || p.isWord(t, "XOR"):
			op = eXor
		default:
			return e
		}
		p.pos++
		e = &expr{op: op, a: e, b: p.band(), col: t.col}
	}
}

func (p *exprParser) band() *expr {
	e := p.not()
	for {
		t := p.peek()
		if !(p.isOp(t, "&") || p.isWord(t, "AND")) {
			return e
		}
		p.pos++
		e = &expr{op: eAnd, a: e, b: p.not(), col: t.col}
	}
}

func unaryOp(p *exprParser, t *token) (exprOp, bool, bool) {
	switch {
	case p.isOp(t, "-"):
		return eNeg, true, true
	case p.isOp(t, "+"):
		return eNum, false, true
	case p.isOp(t, "~") || p.isWord(t, "NOT"):
		return eNot, true, true
	case p.isOp(t, "!"):
		return eLNot, true, true
	}
	return 0, false, false
}

func (p *exprParser) not() *expr {
	t := p.peek()
	if op, real, ok := unaryOp(p, t); ok {
		p.pos++
		a := p.not()
		if !real {
			return a
		}
		return &expr{op: op, a: a, col: t.col}
	}
	return p.rel()
}

func (p *exprParser) rel() *expr {
	e := p.add()
	for {
		t := p.peek()
		var op exprOp
		switch {
		case p.isOp(t, "=", "==") || p.isWord(t, "EQ"):
			op = eEq
		case p.isOp(t, "!=", "<>") || p.isWord(t, "NE"):
			op = eNe
		case p.isOp(t, "<") || p.isWord(t, "LT"):
			op = eLt
		case p.isOp(t, "<=") || p.isWord(t, "LE"):
			op = eLe
		case p.isOp(t, ">") || p.isWord(t, "GT"):
			op = eGt
		case p.isOp(t, ">=") || p.isWord(t, "GE"):
			op = eGe
		default:
			return e
		}
		p.pos++
		e = &expr{op: op, a: e, b: p.add(), col: t.col}
	}
}

func (p *exprParser) add() *expr {
	e := p.mul()
	for {
		t := p.peek()
		var op exprOp
		switch {
		case p.isOp(t, "+"):
			op = eAdd
		case p.isOp(t, "-"):
			op = eSub
		default:
			return e
		}
		p.pos++
		e = &expr{op: op, a: e, b: p.mul(), col: t.col}
	}
}

func (p *exprParser) mul() *expr {
	e := p.primary()
	for {
		t := p.peek()
		var op exprOp
		switch {
		case p.isOp(t, "*"):
			op = eMul
		case p.isOp(t, "/"):
			op = eDiv
		case p.isOp(t, "%") || p.isWord(t, "MOD"):
			op = eMod
		case p.isOp(t, "<<") || p.isWord(t, "SHL"):
			op = eShl
		case p.isOp(t, ">>") || p.isWord(t, "SHR"):
			op = eShr
		default:
			return e
		}
		p.pos++
		e = &expr{op: op, a: e, b: p.primary(), col: t.col}
	}
}

func (p *exprParser) primary() *expr {
	if p.err != nil {
		return &expr{op: eNum}
	}
	t := p.peek()
	if t == nil {
		return p.fail(p.endCol(), "value expected at end of expression")
	}
	if op, real, ok := unaryOp(p, t); ok {
		p.pos++
		a := p.primary()
		if !real {
			return a
		}
		return &expr{op: op, a: a, col: t.col}
	}
	switch t.kind {
	case tNum:
		p.pos++
		return &expr{op: eNum, val: t.val & 0xFFFF, col: t.col}
	case tDollar:
		p.pos++
		return &expr{op: eDollar, col: t.col}
	case tStr:
		p.pos++
		if len(t.str) != 1 {
			return p.fail(t.col, "string used as a number must be one character long")
		}
		return &expr{op: eNum, val: int64(t.str[0]), col: t.col}
	case tIdent:
		switch t.up {
		case "HIGH", "LOW":
			p.pos++
			op := eHigh
			if t.up == "LOW" {
				op = eLow
			}
			return &expr{op: op, a: p.primary(), col: t.col}
		case "NUL":
			// True when nothing follows: used on empty macro arguments.
			p.pos++
			rest := len(p.toks) - p.pos
			p.pos = len(p.toks)
			v := int64(0)
			if rest == 0 {
				v = 0xFFFF
			}
			return &expr{op: eNum, val: v, col: t.col}
		case "DEFINED":
			p.pos++
			n := p.peek()
			paren := false
			if p.isOp(n, "(") {
				paren = true
				p.pos++
				n = p.peek()
			}
			if n == nil || n.kind != tIdent {
				return p.fail(t.col, "DEFINED needs a symbol name")
			}
			p.pos++
			if paren {
				if !p.isOp(p.peek(), ")") {
					return p.fail(p.curCol(), "')' expected")
				}
				p.pos++
			}
			return &expr{op: eDefined, name: n.text, col: n.col}
		}
		if p.debug {
			if e, ok := p.debugPrimary(t); ok {
				return e
			}
		}
		if isReserved(t.up) {
			return p.fail(t.col, "unexpected "+quote(t.text)+" in expression")
		}
		p.pos++
		return &expr{op: eSym, name: t.text, col: t.col}
	case tOp:
		if t.text == "(" || t.text == "[" {
			closeTok := ")"
			if t.text == "[" {
				closeTok = "]"
			}
			p.pos++
			e := p.cond()
			if !p.isOp(p.peek(), closeTok) {
				return p.fail(p.curCol(), quote(closeTok)+" expected")
			}
			p.pos++
			return e
		}
	}
	return p.fail(t.col, "value expected but "+tokDesc(t)+" found")
}

// evalCtx supplies symbol values and the current address.
type evalCtx interface {
	lookup(name string, col int) (int64, *lexError)
	isDefined(name string) bool
	dollar() int64
}

func b2v(b bool) int64 {
	if b {
		return 0xFFFF
	}
	return 0
}

// eval computes e in 16-bit unsigned arithmetic.
func eval(e *expr, c evalCtx) (int64, *lexError) {
	switch e.op {
	case eNum:
		return e.val, nil
	case eSym:
		v, err := c.lookup(e.name, e.col)
		return v & 0xFFFF, err
	case eDollar:
		return c.dollar() & 0xFFFF, nil
	case eDefined:
		return b2v(c.isDefined(e.name)), nil
	case eCond:
		v, err := eval(e.a, c)
		if err != nil {
			return 0, err
		}
		if v != 0 {
			return eval(e.b, c)
		}
		return eval(e.c, c)
	case eLAnd, eLOr:
		v, err := eval(e.a, c)
		if err != nil {
			return 0, err
		}
		if (e.op == eLAnd) == (v == 0) {
			return b2v(e.op == eLOr), nil
		}
		w, err := eval(e.b, c)
		return b2v(w != 0), err
	}
	a, err := eval(e.a, c)
	if err != nil {
		return 0, err
	}
	switch e.op {
	case eNeg:
		return -a & 0xFFFF, nil
	case eNot:
		return ^a & 0xFFFF, nil
	case eLNot:
		return b2v(a == 0), nil
	case eHigh:
		return a >> 8 & 0xFF, nil
	case eLow:
		return a & 0xFF, nil
	case ePeek, ePeekW:
		return evalPeek(e, c, a)
	}
	b, err := eval(e.b, c)
	if err != nil {
		return 0, err
	}
	var r int64
	switch e.op {
	case eAdd:
		r = a + b
	case eSub:
		r = a - b
	case eMul:
		r = a * b
	case eDiv, eMod:
		if b == 0 {
			return 0, &lexError{e.col, "division by zero"}
		}
		if e.op == eDiv {
			r = a / b
		} else {
			r = a % b
		}
	case eShl:
		if b >= 16 {
			r = 0
		} else {
			r = a << uint(b)
		}
	case eShr:
		if b >= 16 {
			r = 0
		} else {
			r = a >> uint(b)
		}
	case eAnd:
		r = a & b
	case eOr:
		r = a | b
	case eXor:
		r = a ^ b
	case eEq:
		r = b2v(a == b)
	case eNe:
		r = b2v(a != b)
	case eLt:
		r = b2v(a < b)
	case eLe:
		r = b2v(a <= b)
	case eGt:
		r = b2v(a > b)
	case eGe:
		r = b2v(a >= b)
	}
	return r & 0xFFFF, nil
}
