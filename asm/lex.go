package asm

import (
	"strings"
)

// tokKind classifies a lexical token of one source line.
type tokKind uint8

const (
	tEOF    tokKind = iota
	tIdent          // identifier or reserved word; text has '$' removed
	tNum            // numeric literal; val holds the value
	tStr            // string literal; str holds the decoded bytes
	tOp             // operator or punctuation; text holds it
	tDollar         // lone '$', the current address
)

type token struct {
	kind tokKind
	text string // identifier (original case) or operator
	up   string // upper-cased identifier, for reserved-word lookup
	val  int64
	str  string
	col  int // 1-based column
}

// lexError is a tokenizer failure at a column.
type lexError struct {
	col int
	msg string
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '?' || c == '@' || c == '.'
}

func isIdentChar(c byte) bool {
	return isIdentStart(c) || c >= '0' && c <= '9' || c == '$'
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) int64 {
	switch {
	case c >= '0' && c <= '9':
		return int64(c - '0')
	case c >= 'a' && c <= 'f':
		return int64(c-'a') + 10
	default:
		return int64(c-'A') + 10
	}
}

// operandEnd reports whether a token ends an operand, so that a following
// '$', '%', '#' or '&' is an operator rather than a number prefix.
func operandEnd(t *token) bool {
	if t == nil {
		return false
	}
	switch t.kind {
	case tNum, tStr, tDollar:
		return true
	case tIdent:
		return !isPrefixWord(t.up) && !mnemonics[t.up] && !directives[t.up]
	case tOp:
		return t.text == ")" || t.text == "]"
	}
	return false
}

// isPrefixWord lists words that are operators, after which an operand follows.
func isPrefixWord(up string) bool {
	switch up {
	case "MOD", "SHL", "SHR", "AND", "OR", "XOR", "NOT", "HIGH", "LOW",
		"EQ", "NE", "LT", "LE", "GT", "GE", "NUL", "DEFINED":
		return true
	}
	return false
}

// parseDigits converts s (which has '$' separators already removed) in the
// given base; ok is false on a bad digit or an empty string.
func parseDigits(s string, base int64) (int64, bool) {
	if s == "" {
		return 0, false
	}
	var v int64
	for i := 0; i < len(s); i++ {
		if !isHex(s[i]) {
			return 0, false
		}
		d := hexVal(s[i])
		if d >= base {
			return 0, false
		}
		v = (v*base + d) & 0xFFFFFFFF
	}
	return v, true
}

// parseNumber decodes a literal starting with a decimal digit: 0x prefix or
// a D/B/H/O/Q suffix, as pasmo accepts.
func parseNumber(raw string) (int64, bool) {
	s := strings.ReplaceAll(raw, "$", "")
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		return parseDigits(s[2:], 16)
	}
	last := s[len(s)-1]
	body := s[:len(s)-1]
	switch last {
	case 'h', 'H':
		return parseDigits(body, 16)
	case 'b', 'B':
		return parseDigits(body, 2)
	case 'o', 'O', 'q', 'Q':
		return parseDigits(body, 8)
	case 'd', 'D':
		return parseDigits(body, 10)
	}
	return parseDigits(s, 10)
}

// lexLine splits a line (comment already allowed) into tokens. It stops at ';'.
func lexLine(line string, toks []token) ([]token, *lexError) {
	toks = toks[:0]
	i := 0
	n := len(line)
	var prev *token
	for i < n {
		c := line[i]
		if c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' {
			i++
			continue
		}
		if c == ';' {
			break
		}
		start := i
		col := i + 1
		switch {
		case isIdentStart(c) && !(c == '?' && (i+1 >= n || !isIdentChar(line[i+1]))):
			for i < n && isIdentChar(line[i]) {
				i++
			}
			raw := line[start:i]
			txt := raw
			if strings.IndexByte(raw, '$') >= 0 {
				txt = strings.ReplaceAll(raw, "$", "")
			}
			up := strings.ToUpper(txt)
			if up == "AF" && i < n && line[i] == '\'' {
				i++
				txt += "'"
				up = "AF'"
			}
			toks = append(toks, token{kind: tIdent, text: txt, up: up, col: col})
		case c >= '0' && c <= '9':
			for i < n && (isHex(line[i]) || line[i] == '$' || line[i] == 'x' || line[i] == 'X' ||
				line[i] == 'h' || line[i] == 'H' || line[i] == 'o' || line[i] == 'O' || line[i] == 'q' || line[i] == 'Q') {
				i++
			}
			raw := line[start:i]
			if i < n && isIdentChar(line[i]) {
				for i < n && isIdentChar(line[i]) {
					i++
				}
				return toks, &lexError{col, "bad number " + quote(line[start:i])}
			}
			v, ok := parseNumber(raw)
			if !ok {
				return toks, &lexError{col, "bad number " + quote(raw)}
			}
			toks = append(toks, token{kind: tNum, val: v, text: raw, col: col})
		case c == '\'' || c == '"':
			s, end, msg := lexString(line, i)
			if msg != "" {
				return toks, &lexError{col, msg}
			}
			i = end
			toks = append(toks, token{kind: tStr, str: s, col: col})
		case (c == '$' || c == '#') && !operandEnd(prev) && i+1 < n && isHex(line[i+1]):
			i++
			for i < n && (isHex(line[i]) || line[i] == '$') {
				i++
			}
			if i < n && isIdentChar(line[i]) {
				return toks, &lexError{col, "bad hexadecimal number " + quote(line[start:i+1])}
			}
			v, ok := parseDigits(strings.ReplaceAll(line[start+1:i], "$", ""), 16)
			if !ok {
				return toks, &lexError{col, "bad number " + quote(line[start:i])}
			}
			toks = append(toks, token{kind: tNum, val: v, text: line[start:i], col: col})
		case c == '$':
			i++
			toks = append(toks, token{kind: tDollar, text: "$", col: col})
		case c == '%' && !operandEnd(prev) && i+1 < n && (line[i+1] == '0' || line[i+1] == '1'):
			i++
			for i < n && (line[i] == '0' || line[i] == '1' || line[i] == '$') {
				i++
			}
			if i < n && isIdentChar(line[i]) {
				return toks, &lexError{col, "bad binary number " + quote(line[start:i+1])}
			}
			v, _ := parseDigits(strings.ReplaceAll(line[start+1:i], "$", ""), 2)
			toks = append(toks, token{kind: tNum, val: v, text: line[start:i], col: col})
		case c == '&' && !operandEnd(prev) && i+1 < n && isIdentChar(line[i+1]):
			i++
			j := i
			for j < n && isIdentChar(line[j]) {
				j++
			}
			body := strings.ReplaceAll(line[i:j], "$", "")
			if body == "" {
				return toks, &lexError{col, "bad number " + quote(line[start:j])}
			}
			base := int64(16)
			switch body[0] {
			case 'h', 'H', 'x', 'X':
				body = body[1:]
			case 'o', 'O':
				base = 8
				body = body[1:]
			}
			v, ok := parseDigits(body, base)
			if !ok {
				return toks, &lexError{col, "bad number " + quote(line[start:j])}
			}
			i = j
			toks = append(toks, token{kind: tNum, val: v, text: line[start:j], col: col})
		default:
			op := ""
			if i+1 < n {
				two := line[i : i+2]
				switch two {
				case "<<", ">>", "<=", ">=", "!=", "==", "&&", "||", "##", "<>":
					op = two
				}
			}
			if op == "" {
				switch c {
				case '+', '-', '*', '/', '%', '(', ')', '[', ']', ',', ':', '<', '>', '=', '!', '~', '&', '|', '^', '?', '#':
					op = string(c)
				default:
					return toks, &lexError{col, "unexpected character " + quote(string(c))}
				}
			}
			i += len(op)
			toks = append(toks, token{kind: tOp, text: op, col: col})
		}
		prev = &toks[len(toks)-1]
	}
	return toks, nil
}

func quote(s string) string { return "'" + s + "'" }

// lexString decodes a quoted literal starting at line[i]. Single quotes take
// everything literally, a doubled quote standing for one; double quotes take C escapes.
func lexString(line string, i int) (string, int, string) {
	q := line[i]
	i++
	var b strings.Builder
	n := len(line)
	for {
		if i >= n {
			return "", i, "unterminated string"
		}
		c := line[i]
		if c == q {
			if q == '\'' && i+1 < n && line[i+1] == '\'' {
				b.WriteByte('\'')
				i += 2
				continue
			}
			return b.String(), i + 1, ""
		}
		if q == '"' && c == '\\' {
			i++
			if i >= n {
				return "", i, "unterminated string"
			}
			e := line[i]
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'a':
				b.WriteByte(7)
			case '\\', '"', '\'':
				b.WriteByte(e)
			case 'x', 'X':
				if i+2 < n && isHex(line[i+1]) && isHex(line[i+2]) {
					b.WriteByte(byte(hexVal(line[i+1])<<4 | hexVal(line[i+2])))
					i += 2
				} else {
					return "", i, "bad \\x escape in string"
				}
			default:
				if e >= '0' && e <= '7' {
					v := 0
					k := 0
					for k < 3 && i < n && line[i] >= '0' && line[i] <= '7' {
						v = v*8 + int(line[i]-'0')
						i++
						k++
					}
					b.WriteByte(byte(v))
					continue
				}
				return "", i, "unknown escape \\" + string(e) + " in string"
			}
			i++
			continue
		}
		b.WriteByte(c)
		i++
	}
}
