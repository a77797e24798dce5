package wd1772

import (
	"sync"
	"testing"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/sched"
)

// FuzzFDC: any sequence of register accesses, waits, disk changes and
// density/clock switches leaves the chip consistent and never panics or
// schedules into the past. Each input is groups of three bytes: what, a
// value, a wait in 50 us units.
func FuzzFDC(f *testing.F) {
	f.Add([]byte{0, 0x88, 200, 3, 0, 10, 0, 0xF8, 255, 1, 0, 0})
	f.Add([]byte{0, 0x0B, 255, 0, 0xD4, 255, 4, 0, 100, 0, 0xE8, 255})
	f.Fuzz(fuzzFDCBody)
}

// fuzzDisk is the amp2 disk every input starts from, made once: filling a
// fresh one byte by byte took most of an input's time.
var fuzzDisk = sync.OnceValue(amp2)

// cloneDisk copies d with every sector's data in one allocation.
func cloneDisk(d *fdimage.Disk) *fdimage.Disk {
	n := 0
	for _, t := range d.Tracks {
		for _, s := range t.Sectors {
			n += len(s.Data)
		}
	}
	slab := make([]byte, n)
	c := *d
	c.Tracks = make([]fdimage.Track, len(d.Tracks))
	for ti, t := range d.Tracks {
		t.Sectors = append([]fdimage.Sector(nil), t.Sectors...)
		for si := range t.Sectors {
			s := &t.Sectors[si]
			if s.Data != nil {
				k := copy(slab, s.Data)
				s.Data, slab = slab[:k:k], slab[k:]
			}
		}
		c.Tracks[ti] = t
	}
	return &c
}

func fuzzFDCBody(t *testing.T, in []byte) {
	{
		r := newRig(t, cloneDisk(fuzzDisk()), false)
		r.quiet = true // the signal log is not looked at
		r.lag = 3 * us
		now := sched.Time(0)
		for i := 0; i+2 < len(in) && i < 300; i += 3 {
			what, v := in[i], in[i+1]
			now += sched.Time(in[i+2]) * 50 * us
			r.s.Advance(now)
			switch what % 8 {
			case 0:
				r.f.Write(RegCommand, v)
			case 1, 2:
				r.f.Write(int(what%8), v)
			case 3:
				r.f.Write(RegData, v)
				r.f.Read(RegData)
			case 4:
				r.f.Read(int(v % 4))
			case 5:
				if r.d.Media() != nil {
					r.d.Eject(now)
				} else {
					r.d.Insert(now, r.media)
				}
			case 6:
				r.f.SetDensity(now, v&1 == 0)
				r.f.SetClock16(now, v&2 != 0)
			case 7:
				r.d.SetSide(now, int(v&1))
				if v&2 != 0 {
					r.f.Select(now, nil)
				} else {
					r.f.Select(now, r.d)
				}
			}
		}
		r.s.Advance(now + 2*sched.Second)
		if r.f.Peek(RegStatus)&StBusy == 0 && r.f.st != sIdle {
			t.Fatalf("not busy in state %d", r.f.st)
		}
	}
}
