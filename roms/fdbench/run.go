package fdbench

import (
	"fmt"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/sched"
)

// Result is what a script left behind.
type Result struct {
	State   byte
	Retries int
	RA      [][6]byte // Read Address results
	Status  []byte    // final status of each FDC command
	Marks   []Mark    // printer-port markers, with their times
	End     sched.Time
}

// Mark is one Script.Mark as the harness saw it.
type Mark struct {
	V       byte
	At      sched.Time
	Retries int // the program's retry count at the marker
}

// NewBoard builds a board with one 48 tpi drive (drive 0) holding disk (in
// memory), booting into RAM at 0100h.
func NewBoard(disk *fdimage.Disk, protected bool) (*emu.Board, error) {
	cfg := emu.DefaultConfig(emu.StubROM(0x0100))
	cfg.ROMName = "fdbench boot stub"
	cfg.Floppies = []emu.Floppy{{Drive: 0, Type: "48tpi"}}
	b, err := emu.New(cfg)
	if err != nil {
		return nil, err
	}
	if disk != nil {
		if err := b.InsertFloppyDisk(0, "fdbench", disk, protected); err != nil {
			b.Close()
			return nil, err
		}
	}
	return b, nil
}

// Load puts p, the script and data (page -> bytes) in b's RAM.
func Load(b *emu.Board, p *Program, s Script, data map[byte][]byte) error {
	if 4*len(s)+4 > 0x1000-int(p.Script) {
		return fmt.Errorf("fdbench: script of %d operations is too long", len(s))
	}
	b.LoadRAM(0, emu.Stub(0x0100))
	b.LoadRAM(p.Org, p.Bytes)
	b.LoadRAM(p.Script, s.Bytes())
	for page, d := range data {
		b.LoadRAM(uint16(page)<<8, d)
	}
	return nil
}

// Exec loads p, the script and data (page -> bytes) into b and runs until
// the script ends or limit of simulated time passes.
func Exec(b *emu.Board, p *Program, s Script, data map[byte][]byte, limit sched.Time) (Result, error) {
	if err := Load(b, p, s, data); err != nil {
		return Result{}, err
	}
	return Finish(b, p, limit)
}

// Finish runs a loaded (or restored) FDBENCH until its script ends or limit
// of simulated time passes, and collects its results.
func Finish(b *emu.Board, p *Program, limit sched.Time) (Result, error) {
	var res Result
	remove := b.ObservePorts(0x01, 0x01, func(t uint64, port uint16, v uint8, out bool) {
		if out {
			r := int(b.RAM(p.Results+1)) | int(b.RAM(p.Results+2))<<8
			res.Marks = append(res.Marks, Mark{v, sched.Time(t) * sched.TState, r})
		}
	})
	defer remove()
	ok, err := b.RunUntil(func() bool { return b.RAM(p.Results) != 0 }, b.Now()+limit)
	if err != nil {
		return res, err
	}
	res.End = b.Now()
	res.State = b.RAM(p.Results)
	if !ok {
		return res, fmt.Errorf("fdbench: script not done within %v", limit)
	}
	if res.State != 1 {
		return res, fmt.Errorf("fdbench: program stopped with state %d", res.State)
	}
	w := func(a uint16) uint16 { return uint16(b.RAM(a)) | uint16(b.RAM(a+1))<<8 }
	res.Retries = int(w(p.Results + 1))
	for a := p.RABuf; a+6 <= w(p.Results+3); a += 6 {
		var id [6]byte
		for k := range id {
			id[k] = b.RAM(a + uint16(k))
		}
		res.RA = append(res.RA, id)
	}
	for a := p.Status; a < w(p.Results+5); a++ {
		res.Status = append(res.Status, b.RAM(a))
	}
	return res, nil
}

// Page returns 512 bytes of RAM from page.
func Page(b *emu.Board, page byte, n int) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = b.RAM(uint16(page)<<8 + uint16(i))
	}
	return out
}
