package debugger

import (
	"fmt"
	"strings"

	"github.com/lbplus/lbplus/z80host"
	"github.com/lbplus/lbplus/z80host/disasm"
)

// RegisterReader reads a 5380 register without side effects (registers
// 0-6 of ncr5380.Chip.Read; register 7 clears the interrupt and is never
// read by the debugger).
type RegisterReader interface {
	Read(reg int) uint8
}

// ChipRegister is one 5380 register decoded bit by bit, bit 7 first.
type ChipRegister struct {
	Name  string
	Value uint8
	Bits  [8]string // names, bit 7 first; "" for an unused bit
}

// Set reports whether bit (7..0) is set.
func (r ChipRegister) Set(bit int) bool { return r.Value&(1<<bit) != 0 }

var chipRegs = []struct {
	reg  int
	name string
	bits [8]string
}{
	{0, "0 CSD  current data", [8]string{"DB7", "DB6", "DB5", "DB4", "DB3", "DB2", "DB1", "DB0"}},
	{1, "1 ICR  initiator cmd", [8]string{"RST", "AIP", "LA", "ACK", "BSY", "SEL", "ATN", "DBUS"}},
	{2, "2 MR   mode", [8]string{"BLK", "TGT", "PCHK", "PINT", "EOPI", "MBSY", "DMA", "ARB"}},
	{3, "3 TCR  target cmd", [8]string{"LAST", "", "", "", "REQ", "MSG", "C/D", "I/O"}},
	{4, "4 CSB  bus status", [8]string{"RST", "BSY", "REQ", "MSG", "C/D", "I/O", "SEL", "DBP"}},
	{5, "5 BSR  bus & status", [8]string{"EDMA", "DRQ", "PERR", "IRQ", "PHM", "BERR", "ATN", "ACK"}},
	{6, "6 IDR  input data", [8]string{"D7", "D6", "D5", "D4", "D3", "D2", "D1", "D0"}},
}

// Chip5380 decodes registers 0-6 of the 5380.
func Chip5380(r RegisterReader) []ChipRegister {
	out := make([]ChipRegister, len(chipRegs))
	for i, c := range chipRegs {
		out[i] = ChipRegister{Name: c.name, Value: r.Read(c.reg), Bits: c.bits}
	}
	return out
}

// String renders a register as "1 ICR ... 18h  RST aip la ACK BSY sel atn dbus"
// with set bits in upper case.
func (r ChipRegister) String() string {
	var parts []string
	for i, n := range r.Bits {
		if n == "" {
			continue
		}
		if r.Set(7 - i) {
			parts = append(parts, n)
		} else {
			parts = append(parts, strings.ToLower(n))
		}
	}
	return fmt.Sprintf("%-22s %02Xh  %s", r.Name, r.Value, strings.Join(parts, " "))
}

// Flags renders F as "SZ-H-PNC" with cleared flags as '-'.
func Flags(f uint8) string {
	const names = "SZYHXPNC"
	b := []byte(names)
	for i := range b {
		if f&(0x80>>i) == 0 {
			b[i] = '-'
		}
	}
	return string(b)
}

// RegsText renders the registers in two lines.
func RegsText(r z80host.Regs) string {
	iff := 0
	if r.IFF1 {
		iff = 1
	}
	halt := ""
	if r.Halted {
		halt = " HALT"
	}
	return fmt.Sprintf("AF=%04X BC=%04X DE=%04X HL=%04X IX=%04X IY=%04X SP=%04X PC=%04X  F=%s\n"+
		"AF'=%04X BC'=%04X DE'=%04X HL'=%04X I=%02X R=%02X IM%d IFF=%d%s",
		r.AF, r.BC, r.DE, r.HL, r.IX, r.IY, r.SP, r.PC, Flags(uint8(r.AF)),
		r.AltAF, r.AltBC, r.AltDE, r.AltHL, r.I, r.R, r.IM, iff, halt)
}

// DisLine is one line of disassembly.
type DisLine struct {
	Addr  uint16
	Label string // symbol at Addr, if any
	Bytes []byte
	Text  string
	Break bool // an execute breakpoint is set here
	PC    bool // the next instruction
}

// Disassemble decodes n instructions from addr.
func (d *Debugger) Disassemble(addr uint16, n int) []DisLine {
	syms := d.disSyms()
	pc := d.PC()
	out := make([]DisLine, 0, n)
	for i := 0; i < n; i++ {
		in := disasm.Decode(d.m.Peek, addr, syms)
		out = append(out, DisLine{Addr: addr, Label: d.Syms.Exact(addr), Bytes: in.Bytes, Text: in.Text,
			Break: d.HasExec(addr), PC: addr == pc})
		addr += uint16(in.Len())
	}
	return out
}

// DisassembleAround decodes n lines with the line at pc near the top
// third: it starts from an earlier address that decodes onto pc (the
// history of executed addresses helps), or at pc.
func (d *Debugger) DisassembleAround(pc uint16, n int) []DisLine {
	before := n / 3
	for back := 3 * before; back > 0; back-- {
		start := pc - uint16(back)
		lines := d.Disassemble(start, n+before)
		for i, l := range lines {
			if l.Addr == pc && i <= before {
				return lines[i-min(i, before):][:n]
			}
		}
	}
	return d.Disassemble(pc, n)
}

// disSyms are the names the disassembly puts on addresses and operands:
// the labels only. An assembler constant (EQU) names a number, not a
// place: 0 is not PHDOUT wherever it appears, nor 0003h (CP/M's IOBYTE)
// PHSTAT.
func (d *Debugger) disSyms() *disasm.Symbols {
	// Only the labels that hold in memory as it is now (Symbols.holds):
	// rebuilt when that set changes.
	var key uint64
	held := make([]sym, 0, len(d.Syms.sorted))
	for _, l := range d.Syms.sorted {
		if d.Syms.holds(l.name, l.addr) {
			held = append(held, l)
			key = key*1099511628211 + uint64(l.addr) + 1
		}
	}
	if d.dsyms == nil || d.dsymsN != d.Syms.Len() || d.dsymsKey != key {
		m := make(map[string]int64, len(held))
		for _, l := range held {
			m[l.name] = int64(l.addr)
		}
		d.dsyms, d.dsymsN, d.dsymsKey = disasm.NewSymbols(m), d.Syms.Len(), key
	}
	return d.dsyms
}

// String renders a disassembly line.
func (l DisLine) String() string {
	mark := "  "
	if l.Break {
		mark = "* "
	}
	if l.PC {
		mark = mark[:1] + ">"
	}
	var hex strings.Builder
	for _, b := range l.Bytes {
		fmt.Fprintf(&hex, "%02X", b)
	}
	label := ""
	if l.Label != "" {
		label = l.Label + ":"
	}
	return fmt.Sprintf("%s%04X  %-8s  %-12s %s", mark, l.Addr, hex.String(), label, l.Text)
}

// Frame is one level of a backtrace: a return address on the stack and
// the call that pushed it.
type Frame struct {
	SP     uint16 // where the return address is
	Return uint16
	Call   uint16 // the CALL or RST before the return address
	Target uint16 // where it called
}

// Backtrace finds up to n return addresses on the stack above SP, within
// depth bytes: words whose preceding bytes are a CALL (CD, or CALL cc) or
// an RST. [A] A heuristic, as every Z80 debugger's: pushed data that
// happens to follow a CALL's bytes looks like a frame too.
func (d *Debugger) Backtrace(n, depth int) []Frame {
	m := d.m
	sp := m.Regs().SP
	var out []Frame
	for off := 0; off+1 < depth && len(out) < n; off += 2 {
		a := sp + uint16(off)
		ret := uint16(m.Peek(a)) | uint16(m.Peek(a+1))<<8
		if op := m.Peek(ret - 3); op == 0xCD || op&0xC7 == 0xC4 {
			out = append(out, Frame{SP: a, Return: ret, Call: ret - 3,
				Target: uint16(m.Peek(ret-2)) | uint16(m.Peek(ret-1))<<8})
			continue
		}
		if op := m.Peek(ret - 1); op&0xC7 == 0xC7 {
			out = append(out, Frame{SP: a, Return: ret, Call: ret - 1, Target: uint16(op & 0x38)})
		}
	}
	return out
}
