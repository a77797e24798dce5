package asm

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"
)

// WriteHex writes the image as Intel HEX: data records of up to 16 bytes
// covering only the bytes the source emitted (pasmo also writes the gaps
// between ORG blocks as zeros), then the end-of-file record.
func (r *Result) WriteHex(w io.Writer) error {
	bw := bufio.NewWriter(w)
	n := len(r.Bytes)
	for i := 0; i < n; {
		if r.Written != nil && !r.Written[i] {
			i++
			continue
		}
		j := i
		for j < n && j-i < 16 && (r.Written == nil || r.Written[j]) {
			j++
		}
		writeHexRecord(bw, uint16(int(r.Org)+i), 0, r.Bytes[i:j])
		i = j
	}
	writeHexRecord(bw, 0, 1, nil)
	return bw.Flush()
}

func writeHexRecord(w *bufio.Writer, addr uint16, typ byte, data []byte) {
	sum := byte(len(data)) + byte(addr>>8) + byte(addr) + typ
	fmt.Fprintf(w, ":%02X%04X%02X", len(data), addr, typ)
	for _, b := range data {
		fmt.Fprintf(w, "%02X", b)
		sum += b
	}
	fmt.Fprintf(w, "%02X\n", byte(-sum))
}

// WriteListing writes the listing: line number, address, up to four bytes,
// T-states and the source line; longer data continues on following lines,
// and a comment line marks each change of source file (INCLUDE).
func (r *Result) WriteListing(w io.Writer) error {
	bw := bufio.NewWriter(w)
	file := ""
	for i, l := range r.Listing {
		if l.File != file {
			if i > 0 {
				fmt.Fprintf(bw, "                              ; ---- %s\n", l.File)
			}
			file = l.File
		}
		addr := "    "
		if l.HasAddr {
			addr = fmt.Sprintf("%04X", l.Addr)
		}
		b := l.Bytes
		first := b
		if len(first) > 4 {
			first = first[:4]
		}
		fmt.Fprintf(bw, "%5d %s  %-12s%-6s%s\n", l.Line, addr, hexBytes(first), l.TStates, l.Text)
		for off := 4; off < len(b); off += 4 {
			end := min(off+4, len(b))
			fmt.Fprintf(bw, "      %04X  %s\n", int(l.Addr)+off&0xFFFF, hexBytes(b[off:end]))
		}
	}
	return bw.Flush()
}

func hexBytes(b []byte) string {
	var s strings.Builder
	for i, v := range b {
		if i > 0 {
			s.WriteByte(' ')
		}
		fmt.Fprintf(&s, "%02X", v)
	}
	return s.String()
}

// WriteSymbols writes the symbol table in pasmo's format, one
// "name<TAB><TAB>EQU 0XXXXH" line per symbol, sorted by name, so the file can
// be INCLUDEd by another program. DEFL symbols are left out (their value
// changes during assembly), as pasmo does.
func (r *Result) WriteSymbols(w io.Writer) error {
	bw := bufio.NewWriter(w)
	names := make([]string, 0, len(r.Symbols))
	for k := range r.Symbols {
		if r.defl[k] {
			continue
		}
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		fmt.Fprintf(bw, "%s\t\tEQU 0%04XH\n", k, r.Symbols[k]&0xFFFF)
	}
	return bw.Flush()
}

// Symbol returns a global symbol's value, or an error naming it when the
// program does not define it (a plain map lookup would give 0).
func (r *Result) Symbol(name string) (uint16, error) {
	v, ok := r.Symbols[name]
	if !ok {
		return 0, fmt.Errorf("asm: symbol %q is not defined by the program", name)
	}
	return uint16(v), nil
}

// IsLabel reports whether a symbol is an address label (defined by a label
// on a line), not a constant (EQU, DEFL, =, -D): debuggers name addresses
// by labels only.
func (r *Result) IsLabel(name string) bool { return r.labels[name] }

// LineAt returns the listing line whose bytes cover addr (the logical
// address, as $ saw it), for debuggers and traces that show source.
func (r *Result) LineAt(addr uint16) (ListLine, bool) {
	for _, l := range r.Listing {
		if n := len(l.Bytes); n > 0 && int(addr)-int(l.Addr) >= 0 && int(addr)-int(l.Addr) < n {
			return l, true
		}
	}
	return ListLine{}, false
}
