package scsi

import (
	"fmt"
	"io"
	"strings"

	"github.com/lbplus/lbplus/sched"
)

// TextTrace writes one readable line per bus change:
//
//	time (us)  phase  asserted lines  DB  edges
//	     12.345 us  COMMAND      BSY|C/D|REQ       db=08  +REQ
type TextTrace struct {
	w     io.Writer
	last  Line
	first bool
	err   error
}

// NewTextTrace returns a tracer writing to w; pass its Change to Bus.Observe.
func NewTextTrace(w io.Writer) *TextTrace { return &TextTrace{w: w, first: true} }

// Change is the Observer.
func (tt *TextTrace) Change(now sched.Time, lines Line, data uint8) {
	if tt.err != nil {
		return
	}
	var edges []string
	for i, n := range lineNames {
		bit := Line(1) << i
		switch {
		case lines&bit != 0 && tt.last&bit == 0:
			edges = append(edges, "+"+n)
		case lines&bit == 0 && tt.last&bit != 0:
			edges = append(edges, "-"+n)
		}
	}
	tt.last = lines
	ns := int64(now / sched.Nanosecond)
	_, tt.err = fmt.Fprintf(tt.w, "%10d.%03d us  %-11s  %-36s  db=%02X  %s\n",
		ns/1000, ns%1000, PhaseOf(lines), lines, data, strings.Join(edges, " "))
}

// Err returns the first write error, if any.
func (tt *TextTrace) Err() error { return tt.err }
