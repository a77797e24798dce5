package wd1772

import (
	"testing"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/devices/floppy"
	"github.com/lbplus/lbplus/sched"
)

// rig is a WD1772 with one drive and a recording of every signal.
type rig struct {
	t     *testing.T
	s     *sched.Scheduler
	f     *FDC
	d     *floppy.Drive
	media *floppy.Media
	log   []sig
	quiet bool // do not record the signals
	// host services DRQ after lag (0: never); reads into got, writes from
	// out.
	lag sched.Time
	got []byte
	out []byte
	hev sched.Event
}

type sig struct {
	at  sched.Time
	who string
	s   floppy.Signal
	v   int
}

func newRig(t *testing.T, disk *fdimage.Disk, protected bool) *rig {
	r := &rig{t: t, s: sched.New()}
	r.d = floppy.NewDrive(r.s, "fd0", floppy.DefaultParams(40))
	r.f = New(r.s, "fdc", DefaultParams())
	r.f.OnMotor = func(now sched.Time, on bool) { r.d.SetMotor(now, on) }
	rec := func(now sched.Time, who string, s floppy.Signal, v int) {
		if !r.quiet {
			r.log = append(r.log, sig{now, who, s, v})
		}
	}
	r.d.Observe(rec)
	r.f.Observe(rec)
	if disk != nil {
		r.media = floppy.NewMedia("test", &floppy.MemoryStore{D: disk}, protected)
		r.d.Insert(0, r.media)
	}
	r.f.Select(0, r.d)
	r.hev.Init("host", r.service)
	r.s.Own(&r.hev)
	r.f.OnDRQ = func(now sched.Time, level bool) {
		if level && r.lag > 0 {
			r.s.Schedule(&r.hev, now+r.lag)
		}
	}
	return r
}

func (r *rig) service(now sched.Time) {
	if !r.f.DRQ() {
		return
	}
	if r.f.isWrite() || r.f.isWriteTrack() {
		b := byte(0)
		if len(r.out) > 0 {
			b, r.out = r.out[0], r.out[1:]
		}
		r.f.Write(RegData, b)
		return
	}
	r.got = append(r.got, r.f.Read(RegData))
}

// cmd writes a command at time at (advancing to it).
func (r *rig) cmd(at sched.Time, c byte) {
	r.s.Advance(at)
	r.f.Write(RegCommand, c)
}

// waitIdle runs until BUSY drops or limit passes; returns the time.
func (r *rig) waitIdle(limit sched.Time) (sched.Time, bool) {
	for r.f.busy() || r.f.Taking() {
		n := r.s.Next()
		if n > limit {
			r.s.Advance(limit)
			return limit, false
		}
		r.s.Advance(n)
	}
	return r.s.Now(), true
}

// times returns the times signal s of who went to v.
func (r *rig) times(who string, s floppy.Signal, v int) []sched.Time {
	var out []sched.Time
	for _, e := range r.log {
		if e.who == who && e.s == s && (v < 0 || e.v == v) {
			out = append(out, e.at)
		}
	}
	return out
}

func after(ts []sched.Time, t sched.Time) []sched.Time {
	for i, x := range ts {
		if x >= t {
			return ts[i:]
		}
	}
	return nil
}

// amp2 is a fresh amp2 disk with distinct sector contents.
func amp2() *fdimage.Disk {
	f, _ := fdimage.ParseFormat("amp2")
	d := f.NewDisk(0xE5)
	for ti := range d.Tracks {
		for si := range d.Tracks[ti].Sectors {
			s := &d.Tracks[ti].Sectors[si]
			for k := range s.Data {
				s.Data[k] = byte(k) ^ s.R ^ byte(ti)
			}
		}
	}
	return d
}
