package scsi

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/lbplus/lbplus/sched"
)

// VCD writes bus changes as a Value Change Dump: one 1-bit wire per control
// line (BSY ... RST, DBP) and per data bit (DB0-DB7). Only 1-bit wires are
// used so that older sigrok VCD readers (libsigrok 0.5) accept the file.
// The timescale is 1 ns (NewVCD) or any power-of-ten unit (NewVCDScale);
// times are rounded down to it. sigrok turns every timescale unit into a
// sample, so for long captures use a coarser unit or sigrok's
// `-I vcd:downsample=N`.
type VCD struct {
	w     *bufio.Writer
	scale sched.Time
	lastT int64
	lines Line
	data  uint8
	err   error
	extra []bool // the extra wires' values (NewVCDWires)
}

const vcdDataBits = 8

// vcdID returns the identifier of signal i: control lines first, then DB0-7.
func vcdID(i int) string { return string(rune('!' + i)) }

// NewVCD writes the VCD header to w and returns the writer; pass its Change
// to Bus.Observe and call Flush at the end.
func NewVCD(w io.Writer) *VCD { return NewVCDScale(w, sched.Nanosecond) }

// vcdUnits are the timescales VCD allows that sched.Time can express.
var vcdUnits = []struct {
	t    sched.Time
	name string
}{
	{sched.Picosecond, "1 ps"}, {10 * sched.Picosecond, "10 ps"}, {100 * sched.Picosecond, "100 ps"},
	{sched.Nanosecond, "1 ns"}, {10 * sched.Nanosecond, "10 ns"}, {100 * sched.Nanosecond, "100 ns"},
	{sched.Microsecond, "1 us"}, {10 * sched.Microsecond, "10 us"}, {100 * sched.Microsecond, "100 us"},
	{sched.Millisecond, "1 ms"},
}

// NewVCDScale is NewVCD with timescale unit, which must be 1, 10 or 100 of
// ps, ns or us, or 1 ms; any other value is taken as 1 ns.
func NewVCDScale(w io.Writer, unit sched.Time) *VCD { return NewVCDWires(w, unit, nil) }

// NewVCDWires is NewVCDScale with extra 1-bit wires after the bus's, named
// extra, for other signals recorded beside the bus (the floppy's INDEX,
// STEP, DRQ, ...); set them with Wire. All start at 0.
func NewVCDWires(w io.Writer, unit sched.Time, extra []string) *VCD {
	v := &VCD{w: bufio.NewWriter(w), scale: sched.Nanosecond, extra: make([]bool, len(extra))}
	name := "1 ns"
	for _, u := range vcdUnits {
		if u.t == unit {
			v.scale, name = u.t, u.name
		}
	}
	v.printf("$version lbplus scsi bus $end\n$timescale %s $end\n$scope module scsi $end\n", name)
	for i, n := range lineNames {
		// "C/D" and "I/O" lose the slash: some viewers split names on it.
		v.printf("$var wire 1 %s %s $end\n", vcdID(i), strings.ReplaceAll(n, "/", ""))
	}
	for b := 0; b < vcdDataBits; b++ {
		v.printf("$var wire 1 %s DB%d $end\n", vcdID(len(lineNames)+b), b)
	}
	for i, n := range extra {
		v.printf("$var wire 1 %s %s $end\n", vcdID(len(lineNames)+vcdDataBits+i), n)
	}
	v.printf("$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n")
	for i := 0; i < len(lineNames)+vcdDataBits+len(extra); i++ {
		v.printf("0%s\n", vcdID(i))
	}
	v.printf("$end\n")
	return v
}

func (v *VCD) printf(format string, a ...any) {
	if v.err == nil {
		_, v.err = fmt.Fprintf(v.w, format, a...)
	}
}

// stamp writes the time of the next change if it moved on.
func (v *VCD) stamp(now sched.Time) {
	if t := int64(now / v.scale); t > v.lastT {
		v.printf("#%d\n", t)
		v.lastT = t
	}
}

// Wire sets extra wire i (NewVCDWires) at now; only changes are written.
func (v *VCD) Wire(now sched.Time, i int, on bool) {
	if i < 0 || i >= len(v.extra) || v.extra[i] == on {
		return
	}
	v.stamp(now)
	v.extra[i] = on
	v.printf("%d%s\n", boolBit(on), vcdID(len(lineNames)+vcdDataBits+i))
}

// Change is the Observer.
func (v *VCD) Change(now sched.Time, lines Line, data uint8) {
	v.stamp(now)
	for i := range lineNames {
		bit := Line(1) << i
		if (lines^v.lines)&bit != 0 {
			v.printf("%d%s\n", boolBit(lines&bit != 0), vcdID(i))
		}
	}
	for b := 0; b < vcdDataBits; b++ {
		if (data^v.data)&(1<<b) != 0 {
			v.printf("%d%s\n", boolBit(data&(1<<b) != 0), vcdID(len(lineNames)+b))
		}
	}
	v.lines, v.data = lines, data
}

// End writes a final timestamp (so viewers show the last state for a while)
// and flushes. It returns the first error met while writing.
func (v *VCD) End(now sched.Time) error {
	if t := int64(now / v.scale); t > v.lastT {
		v.printf("#%d\n", t)
		v.lastT = t
	}
	return v.Flush()
}

// Flush writes buffered output and returns the first error met.
func (v *VCD) Flush() error {
	if v.err != nil {
		return v.err
	}
	v.err = v.w.Flush()
	return v.err
}

func boolBit(b bool) int {
	if b {
		return 1
	}
	return 0
}
