package bench

import (
	"encoding/binary"
	"fmt"
	"maps"
	"slices"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/emu"
)

// RAMProgram is a harness Z80 program (BACKUP, DISKBENCH, TAPEBENCH,
// FDBENCH) loaded into the RAM of a machine built for it, entered through a
// boot stub ROM. The harness and the program share nothing but the
// program's symbols: parameters are written to its p_* labels, results
// read from its r_* labels, and its r_state byte compared with its ST_*
// constants (those of scsilib.inc; FDBENCH defines its own), all looked up
// in the assembler's symbol table. A symbol the harness needs and the
// program lacks is an error when the program is loaded, not a wrong number
// later.
type RAMProgram struct {
	Board *emu.Board
	name  string
	sym   map[string]int64
	done  uint8 // ST_DONE
	fail  uint8 // ST_FAIL
	state uint16
}

// stateSymbols are what every harness program defines (scsilib.inc).
var stateSymbols = []string{"r_state", "ST_DONE", "ST_FAIL"}

// LoadRAMProgram builds the machine cfg describes around the program: a
// boot stub ROM that maps the ROM out and jumps to the program's origin,
// the program in RAM. needs are the symbols the harness will use.
func LoadRAMProgram(name string, prog *asm.Result, cfg emu.Config, needs ...string) (*RAMProgram, error) {
	r := &RAMProgram{name: name, sym: prog.Symbols}
	for _, n := range append(needs, stateSymbols...) {
		if _, ok := prog.Symbols[n]; !ok {
			return nil, fmt.Errorf("%s: symbol %s is not defined", name, n)
		}
	}
	r.state, r.done, r.fail = r.Addr("r_state"), uint8(r.Const("ST_DONE")), uint8(r.Const("ST_FAIL"))
	cfg.ROM = emu.StubROM(prog.Org)
	cfg.ROMName = name + " boot stub"
	b, err := emu.New(cfg)
	if err != nil {
		return nil, err
	}
	b.LoadRAM(0, emu.Stub(prog.Org))
	b.LoadRAM(prog.Org, prog.Bytes)
	r.Board = b
	// The run ends at the instruction that writes the final state, not at
	// whichever check of Finished comes next: a pause or a save state in
	// between moves the checks, and the end (T-states, board time, trace
	// hash) must not move with them.
	b.ObserveMemoryWrites(r.state, r.state, func(_ uint64, _ uint16, v uint8, kind emu.MemAccess) {
		if kind == emu.MemWrite && (v == r.done || v == r.fail) {
			b.Stop()
		}
	})
	return r, nil
}

// Close releases the machine's images.
func (r *RAMProgram) Close() error { return r.Board.Close() }

// Const is the value of a symbol (an EQU or a label).
func (r *RAMProgram) Const(name string) int64 {
	v, ok := r.sym[name]
	if !ok {
		// Only a harness bug gets here: LoadRAMProgram checked the needs.
		panic(fmt.Sprintf("bench: %s: symbol %s was not declared as needed", r.name, name))
	}
	return v
}

// Addr is the address of a label.
func (r *RAMProgram) Addr(name string) uint16 { return uint16(r.Const(name)) }

// Read returns n bytes of RAM from label name on.
func (r *RAMProgram) Read(name string, n int) []byte {
	a := r.Addr(name)
	p := make([]byte, n)
	for i := range p {
		p[i] = r.Board.RAM(a + uint16(i))
	}
	return p
}

// U8, U16 and U32 read a little-endian value at label name.
func (r *RAMProgram) U8(name string) uint8   { return r.Board.RAM(r.Addr(name)) }
func (r *RAMProgram) U16(name string) uint16 { return binary.LittleEndian.Uint16(r.Read(name, 2)) }
func (r *RAMProgram) U32(name string) uint32 { return binary.LittleEndian.Uint32(r.Read(name, 4)) }

// Write puts p into RAM from label name on.
func (r *RAMProgram) Write(name string, p []byte) { r.Board.LoadRAM(r.Addr(name), p) }

// needs is syms plus the labels of fields, for LoadRAMProgram.
func needs(syms []string, fields map[string][]byte) []string {
	return append(slices.Clone(syms), slices.Collect(maps.Keys(fields))...)
}

// WriteFields writes each value at its label (a program's parameters).
func (r *RAMProgram) WriteFields(f map[string][]byte) {
	for name, v := range f {
		r.Write(name, v)
	}
}

// Put8 and Put16 write a parameter byte or little-endian word.
func (r *RAMProgram) Put8(name string, v uint8) { r.Write(name, []byte{v}) }
func (r *RAMProgram) Put16(name string, v uint16) {
	r.Write(name, binary.LittleEndian.AppendUint16(nil, v))
}

// Finished reports whether the program has stopped: done or failed.
func (r *RAMProgram) Finished() bool { s := r.Board.RAM(r.state); return s == r.done || s == r.fail }

// Done and Failed report how it stopped.
func (r *RAMProgram) Done() bool   { return r.Board.RAM(r.state) == r.done }
func (r *RAMProgram) Failed() bool { return r.Board.RAM(r.state) == r.fail }
