package cpmbios_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/roms/cpm"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// ioProg writes through the BDOS to the list device (the parallel port by
// the default IOBYTE), the punch (DART B), the list device again with
// IOBYTE's LST: field set to UL1: (DART B), and returns.
const ioProg = `
        org 100h
        ld e,'P'
        ld c,5                  ; list output
        call 5
        ld e,'X'
        ld c,4                  ; punch output
        call 5
        ld a,(3)
        push af
        or 0C0h                 ; LST: = UL1:
        ld (3),a
        ld e,'L'
        ld c,5
        call 5
        pop af
        ld (3),a
        ret
`

// The character devices behind the IOBYTE, and the clock: cascaded CTC
// channels with the ZC/TO2 -> CLK/TRG3 jumper, channel 3 alone without.
func TestDevicesAndClock(t *testing.T) {
	for _, cascade := range []bool{false, true} {
		t.Run(map[bool]string{false: "no cascade jumper", true: "cascade jumper"}[cascade], func(t *testing.T) {
			testDevicesAndClock(t, cascade)
		})
	}
}

func testDevicesAndClock(t *testing.T, cascade bool) {
	path := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 1})
	var aux []byte
	r := newRig(t, 30*sched.Second, func(cfg *emu.Config) {
		cfg.SerialBOut = func(_ sched.Time, b byte) { aux = append(aux, b) }
		cfg.SCSI = []scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{path}}}
		cfg.Jumpers.TO2ToTRG3 = cascade
	})
	require.NoError(t, r.ty.WaitFor("A>"))
	assert.Equal(t, uint8(0x95), r.b.RAM(3), "default IOBYTE: LST=LPT, PUN=PTP, RDR=PTR, CON=CRT")

	r.b.LoadRAM(0x100, assembleSrc(t, ioProg).Bytes)
	r.cmd(t, "SAVE 1 IO.COM", "A>")
	r.cmd(t, "IO", "A>")
	assert.Equal(t, uint8('P'), r.b.PrinterData(), "LST: = LPT: reaches the parallel port")
	assert.Equal(t, "XL", string(aux), "PUN: and LST: = UL1: reach DART B")

	clock := func() uint32 {
		a := uint16(cpm.BIOSBase + 0x35)
		return uint32(r.b.RAM(a)) | uint32(r.b.RAM(a+1))<<8 | uint32(r.b.RAM(a+2))<<16 | uint32(r.b.RAM(a+3))<<24
	}
	assert.Equal(t, "LB", string([]byte{r.b.RAM(cpm.BIOSBase + 0x33), r.b.RAM(cpm.BIOSBase + 0x34)}))
	before := clock()
	require.NoError(t, r.b.RunFor(10*sched.Second))
	assert.Equal(t, before+10, clock(), "the CTC counts 10 seconds in 10 s")
	syms, err := cpmbios.Symbols()
	require.NoError(t, err)
	rate := map[bool]uint8{false: 125, true: 1}[cascade]
	assert.Equal(t, rate, r.b.RAM(uint16(syms["tickrate"])), "interrupts a second")
}

// inProg reads the reader (RDR: = PTR:, DART B), asks LISTST, then with
// the IOBYTE's CON: field set to UC1: (DART B) prints 'C' and reads a
// console key there; the results go to 0180h-0182h.
const inProg = `
        org 100h
        ld c,3                  ; reader input
        call 5
        ld (180h),a
        call listst
        ld (181h),a
        ld a,(3)
        push af
        or 3                    ; CON: = UC1:
        ld (3),a
        ld e,'C'
        ld c,2
        call 5
        ld c,1                  ; console input (echoed)
        call 5
        ld (182h),a
        pop af
        ld (3),a
        ret
listst: ld hl,(1)               ; WBOOT entry + 2Ah = LISTST (entry 15)
        ld de,2Ah
        add hl,de
        jp (hl)
`

// Input through the IOBYTE: the reader and a console moved to DART B, and
// the printer's BUSY (DART B's RI) as LISTST sees it.
func TestIOBYTEInputAndPrinterBusy(t *testing.T) {
	path := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 1})
	var aux []byte
	r := newRig(t, 30*sched.Second, func(cfg *emu.Config) {
		cfg.SerialBOut = func(_ sched.Time, b byte) { aux = append(aux, b) }
		cfg.SCSI = []scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{path}}}
	})
	require.NoError(t, r.ty.WaitFor("A>"))
	r.b.LoadRAM(0x100, assembleSrc(t, inProg).Bytes)
	r.cmd(t, "SAVE 1 IN.COM", "A>")
	chB := r.b.DART().Channel(1)
	for _, busy := range []bool{true, false} {
		aux = nil
		chB.SetRI(busy)
		chB.Feed([]byte("RK"))
		r.cmd(t, "IN", "A>")
		assert.Equal(t, uint8('R'), r.b.RAM(0x180), "RDR: = PTR: reads DART B")
		assert.Equal(t, map[bool]uint8{true: 0, false: 0xFF}[busy], r.b.RAM(0x181), "LISTST with BUSY %v", busy)
		assert.Equal(t, uint8('K'), r.b.RAM(0x182), "CON: = UC1: reads DART B")
		assert.Equal(t, "CK", string(aux), "CON: = UC1: prints and echoes on DART B")
	}
}
