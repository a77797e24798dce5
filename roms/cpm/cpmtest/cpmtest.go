// Package cpmtest runs CP/M 2.2 software on a Go BIOS: a z80host CPU with
// 64 KB of flat RAM, the BIOS's 17 entries trapped in Go at BIOSBase
// (layout.inc), disks as in-memory images in cpmtools' raw layout, and the
// console as a transcript fed from a script a line at a time.
//
// It is the test bench of lbplus's own BDOS and CCP (package roms/cpm) and
// of the CP/M programs built for them; it models no hardware. Timing is
// whatever the CPU spends in BDOS and CCP: a BIOS call costs only its RET.
//
// The system tracks of drive A hold the CCP+BDOS image at their first byte
// (this harness's own convention, not the Ampro boot layout); warm boot
// reloads it from there, so a program that overwrites the CCP gets it
// back only through a working warm boot.
package cpmtest

import (
	"errors"
	"fmt"
	"strings"

	"github.com/lbplus/lbplus/roms/cpm"
	"github.com/lbplus/lbplus/z80host"
)

// BIOS entry numbers (CP/M 2.2 order).
const (
	fBoot = iota
	fWboot
	fConst
	fConin
	fConout
	fList
	fPunch
	fReader
	fHome
	fSeldsk
	fSettrk
	fSetsec
	fSetdma
	fRead
	fWrite
	fListst
	fSectran
	nEntries
)

// Where the Go BIOS keeps its tables: after the jump table in the BIOS page.
const (
	dphBase = cpm.BIOSBase + 0x100 // 16 DPHs of 16 bytes
	dpbBase = dphBase + 16*16      // 16 DPBs of 16 bytes
	dirBuf  = dpbBase + 16*16      // one 128-byte directory buffer
	alvBase = dirBuf + 128         // per drive: 256 bytes ALV + 64 CSV
	alvSize = 256
	csvSize = 64
	// MaxDrives is how many drives (A:-H:) the Go BIOS has tables for.
	MaxDrives = 8
)

// ErrInput is returned by Run when the program waits for a key and the
// script is used up.
var ErrInput = errors.New("cpmtest: waiting for console input")

// ErrLimit is returned by Run when the T-state budget ran out.
var ErrLimit = errors.New("cpmtest: T-state limit reached")

// Machine is a CP/M 2.2 computer with a Go BIOS.
type Machine struct {
	CPU   *z80host.CPU
	Mem   *[65536]byte
	Disks [16]*Disk
	// Out is the console transcript; List and Punch what went to the
	// printer and the punch.
	Out, List, Punch strings.Builder
	// Reader is what the reader device supplies (1Ah once used up).
	Reader []byte
	// WarmBoots counts warm boots; StopOnWarmBoot ends Run at one.
	WarmBoots      int
	StopOnWarmBoot bool

	bus     *ramBus
	sys     []byte // CCP+BDOS for cold boot
	lines   []string
	pending []byte
	trk     int
	sec     int
	dma     uint16
	drive   int
	stopErr error
}

type ramBus struct {
	mem          [65536]byte
	rpage, wpage [256]*[256]byte
}

func (b *ramBus) MemoryPages() (r, w *[256]*[256]byte) { return &b.rpage, &b.wpage }
func (b *ramBus) Fetch(a uint16, t uint64) uint8       { return b.mem[a] }
func (b *ramBus) Read(a uint16, t uint64) uint8        { return b.mem[a] }
func (b *ramBus) Write(a uint16, v uint8, t uint64)    { b.mem[a] = v }
func (b *ramBus) In(p uint16, t uint64) (uint8, int)   { return 0xff, 0 }
func (b *ramBus) Out(p uint16, v uint8, t uint64) int  { return 0 }

// New builds a machine that runs our own CCP and BDOS. Attach disks, then
// Boot.
func New() (*Machine, error) {
	sys, err := cpm.System()
	if err != nil {
		return nil, err
	}
	return NewWith(sys)
}

// NewWith builds a machine around another SysSize CCP+BDOS image for
// CCPBase (DR's, ZCPR/ZRDOS).
func NewWith(sys []byte) (*Machine, error) {
	if len(sys) != cpm.SysSize {
		return nil, fmt.Errorf("cpmtest: CCP+BDOS image is %d bytes, want %d", len(sys), cpm.SysSize)
	}
	b := &ramBus{}
	for i := range 256 {
		p := (*[256]byte)(b.mem[i*256 : i*256+256])
		b.rpage[i], b.wpage[i] = p, p
	}
	m := &Machine{bus: b, Mem: &b.mem, sys: sys}
	m.CPU = z80host.New(b)
	m.CPU.Hook = m
	for i := range nEntries {
		b.mem[cpm.BIOSBase+3*i] = 0xc9 // RET, after the Go side ran
	}
	return m, nil
}

// Attach puts disk d in drive n (0 = A:). With system set, the CCP+BDOS
// image is written to the start of its system tracks.
func (m *Machine) Attach(n int, d *Disk, system bool) error {
	if n < 0 || n >= MaxDrives {
		return fmt.Errorf("cpmtest: drive %d: the Go BIOS has drives 0-%d", n, MaxDrives-1)
	}
	if d.F.DSM()/8+1 > alvSize || d.F.CKS > csvSize {
		return fmt.Errorf("cpmtest: format %s needs larger BIOS tables", d.F.Name)
	}
	m.Disks[n] = d
	if system {
		copy(d.Data, m.sys)
	}
	return nil
}

// Type queues console input lines; each is released when the program
// waits for a key with nothing typed ahead, so output never sees keys a
// user had not yet typed. A line gets no CR added: write "DIR\r".
func (m *Machine) Type(lines ...string) { m.lines = append(m.lines, lines...) }

// Boot performs the cold boot: page zero, IOBYTE 0, drive A:, user 0, and
// the CCP entered at CCPBase+3.
func (m *Machine) Boot() {
	copy(m.bus.mem[cpm.CCPBase:], m.sys)
	m.bus.mem[3] = 0
	m.bus.mem[4] = 0
	m.enterCCP(cpm.CCPBase + 3)
}

// LoadProgram puts a .COM image at 0100h with page zero set up, the tail
// (as typed after the command name) at 0080h and the default FCBs empty,
// ready for Run without the CCP. The BDOS is loaded too.
func (m *Machine) LoadProgram(com []byte, tail string) error {
	if 0x100+len(com) > cpm.CCPBase {
		return fmt.Errorf("cpmtest: program of %d bytes does not fit below the CCP", len(com))
	}
	copy(m.bus.mem[cpm.CCPBase:], m.sys)
	m.pageZero()
	copy(m.bus.mem[0x100:], com)
	for i := 0x5c; i < 0x80; i++ {
		m.bus.mem[i] = 0
	}
	for i := 0x5d; i < 0x5d+11; i++ {
		m.bus.mem[i], m.bus.mem[i+16] = ' ', ' '
	}
	m.bus.mem[0x80] = byte(len(tail))
	copy(m.bus.mem[0x81:], tail)
	m.bus.mem[0x81+len(tail)] = 0
	m.bus.mem[0xfffe], m.bus.mem[0xffff] = 0, 0 // RET to 0000h: warm boot
	m.CPU.SetRegs(z80host.Regs{PC: 0x100, SP: 0xfffe})
	return nil
}

func (m *Machine) pageZero() {
	mem := &m.bus.mem
	mem[0], mem[1], mem[2] = 0xc3, byte((cpm.BIOSBase+3)&0xff), byte((cpm.BIOSBase+3)>>8)
	mem[5], mem[6], mem[7] = 0xc3, byte(cpm.BDOSEnt&0xff), byte(cpm.BDOSEnt>>8)
	m.dma = 0x80
}

func (m *Machine) enterCCP(pc uint16) {
	m.pageZero()
	m.CPU.SetRegs(z80host.Regs{PC: pc, SP: 0x100, BC: uint16(m.bus.mem[4])})
}

// Run executes until the program waits for input the script does not
// have (ErrInput), a warm boot with StopOnWarmBoot (nil), or maxT more
// T-states (ErrLimit).
func (m *Machine) Run(maxT uint64) error {
	m.stopErr = nil
	if m.CPU.Run(m.CPU.T() + maxT) {
		return m.stopErr
	}
	return ErrLimit
}

// BeforeInstruction traps the BIOS entries.
func (m *Machine) BeforeInstruction(pc uint16, t uint64) bool {
	if pc < cpm.BIOSBase || pc >= cpm.BIOSBase+3*nEntries || (pc-cpm.BIOSBase)%3 != 0 {
		return false
	}
	return m.bios(int(pc-cpm.BIOSBase) / 3)
}

func (m *Machine) bios(fn int) (stop bool) {
	r := m.CPU.Regs()
	a := byte(0)
	c := byte(r.BC)
	switch fn {
	case fBoot:
		m.Boot()
		return false
	case fWboot:
		m.WarmBoots++
		if m.StopOnWarmBoot {
			return true
		}
		if d := m.Disks[0]; d != nil {
			copy(m.bus.mem[cpm.CCPBase:cpm.CCPBase+cpm.SysSize], d.Data)
		}
		m.enterCCP(cpm.CCPBase + 3)
		return false
	case fConst:
		if len(m.pending) > 0 {
			a = 0xff
		}
	case fConin:
		if len(m.pending) == 0 {
			if len(m.lines) == 0 {
				m.stopErr = ErrInput
				return true
			}
			m.pending = []byte(m.lines[0])
			m.lines = m.lines[1:]
			if len(m.pending) == 0 {
				return m.bios(fn)
			}
		}
		a = m.pending[0]
		m.pending = m.pending[1:]
	case fConout:
		m.Out.WriteByte(c & 0x7f)
	case fList:
		m.List.WriteByte(c)
	case fPunch:
		m.Punch.WriteByte(c)
	case fReader:
		a = 0x1a
		if len(m.Reader) > 0 {
			a, m.Reader = m.Reader[0], m.Reader[1:]
		}
	case fHome:
		m.trk = 0
	case fSeldsk:
		r.HL = 0
		if c < MaxDrives && m.Disks[c] != nil {
			m.drive = int(c)
			r.HL = m.dph(int(c))
		}
	case fSettrk:
		m.trk = int(r.BC)
	case fSetsec:
		m.sec = int(r.BC)
	case fSetdma:
		m.dma = r.BC
	case fRead, fWrite:
		a = 1
		if d := m.Disks[m.drive]; d != nil {
			if off, ok := d.record(m.trk, m.sec); ok {
				a = 0
				for i := range 128 {
					p := m.dma + uint16(i)
					if fn == fRead {
						m.bus.mem[p] = d.Data[off+i]
					} else {
						d.Data[off+i] = m.bus.mem[p]
					}
				}
			}
		}
	case fListst:
		a = 0xff
	case fSectran:
		r.HL = r.BC
		if r.DE != 0 {
			r.HL = uint16(m.bus.mem[r.DE+r.BC])
		}
	}
	r.AF = uint16(a)<<8 | r.AF&0xff
	m.CPU.SetRegs(r)
	return false
}

// dph builds drive n's DPH, DPB and tables in the BIOS area and returns
// the DPH's address.
func (m *Machine) dph(n int) uint16 {
	f := m.Disks[n].F
	mem := &m.bus.mem
	h := dphBase + 16*n
	p := dpbBase + 16*n
	alv := alvBase + n*(alvSize+csvSize)
	put := func(a, v int) { mem[a], mem[a+1] = byte(v), byte(v>>8) }
	put(h+0, 0) // no translation
	put(h+2, 0)
	put(h+4, 0)
	put(h+6, 0)
	put(h+8, dirBuf)
	put(h+10, p)
	put(h+12, alv+alvSize)
	put(h+14, alv)
	copy(mem[p:], f.DPB())
	return uint16(h)
}

// Peek returns n bytes of memory from a.
func (m *Machine) Peek(a uint16, n int) []byte {
	return append([]byte(nil), m.bus.mem[a:int(a)+n]...)
}

// Poke writes bytes into memory at a.
func (m *Machine) Poke(a uint16, b []byte) { copy(m.bus.mem[a:], b) }

// Transcript is the console output with CRs removed, for golden files.
func (m *Machine) Transcript() string { return strings.ReplaceAll(m.Out.String(), "\r", "") }

// Save puts data on the current drive as file name through the CCP's
// SAVE (so in whole 256-byte pages): the machine must be booted, and Save
// runs it until the CCP waits at the prompt again.
func (m *Machine) Save(name string, data []byte) error {
	m.Poke(0x100, data)
	m.Type(fmt.Sprintf("SAVE %d %s\r", (len(data)+255)/256, name))
	if err := m.Run(100_000_000); !errors.Is(err, ErrInput) {
		return fmt.Errorf("cpmtest: SAVE %s: %v", name, err)
	}
	return nil
}
