package debugger

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/lbplus/lbplus/asm"
)

// Symbols maps names to addresses and back, from the assembler's results
// or its symbol files (pasmo's "name EQU 0XXXXH" lines, as lbplus asm
// --sym writes them).
type Symbols struct {
	byName map[string]uint16
	sorted []sym // address labels by address, then name
	consts map[string]bool
	// code holds, for a label from an assembly, the byte its program puts
	// at the label's address: the label names the address only while
	// memory still holds that byte (peek). A monitor's labels at 8000h
	// then stop naming the TPA once CP/M has loaded a program there.
	code map[string]byte
	peek func(uint16) uint8
}

type sym struct {
	addr uint16
	name string
}

// SetPeek gives the table the memory its assembled labels are checked
// against (nil: every label always holds).
func (s *Symbols) SetPeek(peek func(uint16) uint8) { s.peek = peek }

// holds reports whether label n names its address in memory as it is now.
func (s *Symbols) holds(n string, addr uint16) bool {
	if s.peek == nil {
		return true
	}
	b, ok := s.code[n]
	return !ok || s.peek(addr) == b
}

// NewSymbols returns an empty table.
func NewSymbols() *Symbols {
	return &Symbols{byName: map[string]uint16{}, consts: map[string]bool{}, code: map[string]byte{}}
}

// AddResult adds an assembly's symbols; its constants (EQU, DEFL) can be
// named in expressions but never name an address.
func (s *Symbols) AddResult(r *asm.Result) {
	for n, v := range r.Symbols {
		if !r.IsLabel(n) {
			s.consts[n] = true
			continue
		}
		if i := v - int64(r.Org); i >= 0 && i < int64(len(r.Bytes)) {
			s.code[n] = r.Bytes[i]
		}
	}
	s.Add(r.Symbols)
}

// Add adds every symbol of m (an asm.Result's Symbols).
func (s *Symbols) Add(m map[string]int64) {
	for n, v := range m {
		s.byName[n] = uint16(v)
	}
	s.resort()
}

func (s *Symbols) resort() {
	s.sorted = s.sorted[:0]
	for n, a := range s.byName {
		if !s.consts[n] {
			s.sorted = append(s.sorted, sym{a, n})
		}
	}
	sort.Slice(s.sorted, func(i, j int) bool {
		if s.sorted[i].addr != s.sorted[j].addr {
			return s.sorted[i].addr < s.sorted[j].addr
		}
		return s.sorted[i].name < s.sorted[j].name
	})
}

// Len is the number of symbols.
func (s *Symbols) Len() int { return len(s.byName) }

// LoadFile reads a symbol file. Errors name the file and line.
func (s *Symbols) LoadFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("symbol file: %w", err)
	}
	defer f.Close()
	return s.Read(path, f)
}

// Read parses symbol lines from r; name is used in errors.
func (s *Symbols) Read(name string, r io.Reader) error {
	sc := bufio.NewScanner(r)
	m := map[string]int64{}
	for ln := 1; sc.Scan(); ln++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == ';' {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 3 || !strings.EqualFold(f[1], "EQU") {
			return fmt.Errorf("%s:%d: want \"name EQU value\", got %q", name, ln, line)
		}
		v, err := parseNum(f[2])
		if err != nil {
			return fmt.Errorf("%s:%d: %v", name, ln, err)
		}
		m[f[0]] = int64(v)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	s.Add(m)
	return nil
}

// parseNum reads 0XXXXH, XXXXh, 0xXXXX, $XXXX or decimal.
func parseNum(t string) (uint16, error) {
	u := strings.ToUpper(t)
	var v uint64
	var err error
	switch {
	case strings.HasSuffix(u, "H"):
		v, err = strconv.ParseUint(u[:len(u)-1], 16, 16)
	case strings.HasPrefix(u, "0X"):
		v, err = strconv.ParseUint(u[2:], 16, 16)
	case strings.HasPrefix(u, "$"):
		v, err = strconv.ParseUint(u[1:], 16, 16)
	default:
		v, err = strconv.ParseUint(u, 10, 16)
	}
	if err != nil {
		return 0, fmt.Errorf("bad value %q", t)
	}
	return uint16(v), nil
}

// Lookup returns a symbol's address.
func (s *Symbols) Lookup(name string) (uint16, bool) {
	v, ok := s.byName[name]
	return v, ok
}

// Exact returns the first name (alphabetically) at addr, or "".
func (s *Symbols) Exact(addr uint16) string {
	i := sort.Search(len(s.sorted), func(i int) bool { return s.sorted[i].addr >= addr })
	for ; i < len(s.sorted) && s.sorted[i].addr == addr; i++ {
		if s.holds(s.sorted[i].name, addr) {
			return s.sorted[i].name
		}
	}
	return ""
}

// maxOffset is how far past a symbol Label still names an address by it.
const maxOffset = 0x100

// Label renders addr as "NAME", "NAME+5 (1234h)" or "1234h".
func (s *Symbols) Label(addr uint16) string {
	// The last label at or below addr that holds; prefer the first name at
	// that address.
	for i := sort.Search(len(s.sorted), func(i int) bool { return s.sorted[i].addr > addr }); i > 0; i-- {
		a := s.sorted[i-1].addr
		if addr-a >= maxOffset {
			break
		}
		j := sort.Search(len(s.sorted), func(k int) bool { return s.sorted[k].addr >= a })
		if n := s.Exact(a); n != "" {
			if a == addr {
				return fmt.Sprintf("%s (%04Xh)", n, addr)
			}
			return fmt.Sprintf("%s+%d (%04Xh)", n, addr-a, addr)
		}
		i = j + 1 // past every name at a
	}
	return fmt.Sprintf("%04Xh", addr)
}

// Address parses an address: a symbol, or a number in hexadecimal (1234,
// 1234h, 0x1234, $1234; debuggers' convention), optionally "+n".
func (s *Symbols) Address(t string) (uint16, error) {
	base, off := t, uint16(0)
	if i := strings.LastIndex(t, "+"); i > 0 {
		o, err := parseNum(t[i+1:])
		if err != nil {
			return 0, err
		}
		base, off = t[:i], o
	}
	if v, ok := s.byName[base]; ok {
		return v + off, nil
	}
	v, err := parseNum(base)
	if err != nil || !strings.ContainsAny(strings.ToUpper(base), "HX$") {
		h, err2 := strconv.ParseUint(strings.TrimSuffix(strings.ToUpper(base), "H"), 16, 16)
		if err2 != nil {
			return 0, fmt.Errorf("%q is neither a symbol nor an address", t)
		}
		v = uint16(h)
	}
	return v + off, nil
}
