package floppy

import "github.com/lbplus/lbplus/sched"

// Signal names a line or value observers are told about. The drive reports
// the first group, the WD1772 the second (it uses the same type so one
// tracer sees both).
type Signal uint8

const (
	Index     Signal = iota // index hole under the sensor (1) or not (0)
	Motor                   // spindle motor on
	Step                    // a step pulse (v = new cylinder)
	Direction               // 1 = in (towards higher cylinders)
	Cylinder                // head cylinder after a step
	Ready                   // READY output
	Side                    // side select
	MediaIn                 // disk inserted (1) or ejected (0)

	DRQ     // WD1772 data request
	INTRQ   // WD1772 interrupt request
	Busy    // WD1772 status bit 0
	State   // WD1772 internal state (v = a wd1772 state number)
	IDField // WD1772 read an ID field's address mark (v = its record number)
	Command // the CPU wrote the WD1772's command register (v = the command)
)

var signalNames = [...]string{"INDEX", "MOTOR", "STEP", "DIRECTION", "CYLINDER", "READY", "SIDE", "MEDIA", "DRQ", "INTRQ", "BUSY", "STATE", "IDFIELD", "COMMAND"}

func (s Signal) String() string {
	if int(s) < len(signalNames) {
		return signalNames[s]
	}
	return "?"
}

// Observer is told of every change: who (a drive's or the FDC's name),
// which signal, its new value.
type Observer func(now sched.Time, who string, sig Signal, v int)

// Observers is the list of a drive's or the FDC's observers.
type Observers struct{ sched.Observers[Observer] }

// Add adds o and returns a function that removes it.
func (l *Observers) Add(o Observer) (remove func()) { return l.Observers.Add(o, nil) }

// Emit tells every observer.
func (l *Observers) Emit(now sched.Time, who string, sig Signal, v int) {
	for _, fn := range l.List() {
		fn(now, who, sig, v)
	}
}
