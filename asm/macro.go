package asm

// MACRO, REPT and IRP: argument splitting, parameter substitution,
// LOCAL scopes and nesting limits.

import (
	"fmt"
	"strings"
)

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
			if !a.spend(l) {
				break
			}
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
			if !a.spend(l) {
				break
			}
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
