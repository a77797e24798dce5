package cpmbios_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/emu/console"
	"github.com/lbplus/lbplus/roms/cpm"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/roms/monitor"
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
	rom, err := monitor.Image()
	require.NoError(t, err)
	r := &rig{tr: &console.Transcript{}}
	var aux []byte
	cfg := emu.DefaultConfig(rom)
	cfg.ConsoleOut = r.tr.Out
	cfg.SerialBOut = func(_ sched.Time, b byte) { aux = append(aux, b) }
	cfg.SCSI = []scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{path}}}
	cfg.Jumpers.TO2ToTRG3 = cascade
	r.b, err = emu.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { r.b.Close() })
	r.ty = &console.Typist{B: r.b, T: r.tr, Limit: 30 * sched.Second}
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
