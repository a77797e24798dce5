package disasm

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Symbols maps addresses to names, read from the assembler's symbol
// output (lbplus asm --sym: one "NAME EQU 0XXXXH" a line, pasmo's format).
// The nil *Symbols has no names.
type Symbols struct {
	byAddr map[uint16]string
	byName map[string]uint16
}

// NewSymbols builds a table from names and values (the assembler's
// Result.Symbols); where several names share an address the first in
// alphabetical order is shown.
func NewSymbols(m map[string]int64) *Symbols {
	s := &Symbols{byAddr: map[uint16]string{}, byName: map[string]uint16{}}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		s.add(k, uint16(m[k]))
	}
	return s
}

func (s *Symbols) add(name string, v uint16) {
	s.byName[name] = v
	if _, ok := s.byAddr[v]; !ok {
		s.byAddr[v] = name
	}
}

// ReadSymbols parses a symbol file; name labels errors ("FILE:LINE: ...").
func ReadSymbols(r io.Reader, name string) (*Symbols, error) {
	m := map[string]int64{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], ";") {
			continue
		}
		if len(f) != 3 || !strings.EqualFold(f[1], "EQU") {
			return nil, fmt.Errorf("%s:%d: want NAME EQU VALUE, got %q", name, n, sc.Text())
		}
		v, err := parseNumber(f[2])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, n, err)
		}
		m[f[0]] = v
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return NewSymbols(m), nil
}

// parseNumber reads 0XXXXH, XXXXh, 0x1234, $1234 or decimal.
func parseNumber(s string) (int64, error) {
	t := strings.ToLower(s)
	base := 10
	switch {
	case strings.HasSuffix(t, "h"):
		t, base = t[:len(t)-1], 16
	case strings.HasPrefix(t, "0x"):
		t, base = t[2:], 16
	case strings.HasPrefix(t, "$"):
		t, base = t[1:], 16
	}
	v, err := strconv.ParseInt(t, base, 64)
	if err != nil || v < 0 || v > 0xffff {
		return 0, fmt.Errorf("value %q is not an address", s)
	}
	return v, nil
}

// Name returns the name of address a, if it has one.
func (s *Symbols) Name(a uint16) (string, bool) {
	if s == nil {
		return "", false
	}
	n, ok := s.byAddr[a]
	return n, ok
}

// Addr returns the value of a name (for the debugger's "break at NAME").
func (s *Symbols) Addr(name string) (uint16, bool) {
	if s == nil {
		return 0, false
	}
	v, ok := s.byName[name]
	return v, ok
}
