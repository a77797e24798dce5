// Package scsidev is the layer every SCSI target model of the emulator stands
// on (devices/acb4000, devices/mcd403, devices/scsihd): how a machine
// configuration names a device and attaches it to the board's bus, what a
// program may ask of any device without naming its model (the optional
// interfaces: Paneled, Repositioner, Medium, Rotating), and the helpers a command set
// needs on top of the scsi target engine.
//
// A device type is a value of Type: its name in machine files and on the
// command line (`--scsi 0=acb4000:hd0.img`) and its Attach function. The
// board keeps a registry of types by name (emu), so a new target type is one
// package plus one registration line there.
//
// What a model shares with every other: Command (LUN, CDB, the status it
// ends with, and the short byte runs, sent or received one engine
// continuation per byte with one step for the model when the run ends),
// Events (its own named events as a group, cancelled together on bus RST),
// and Stats (the counters every model keeps, beside its own). Transfers
// paced by mechanics stay the model's: one callback per sector (acb4000) or
// tape block (mcd403).
package scsidev

import (
	"bytes"
	"encoding/gob"
	"fmt"

	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi"
)

// Spec is what a machine configuration says about one SCSI device.
type Spec struct {
	// ID is the device's SCSI ID (0-7), set with its jumpers.
	ID int `toml:"id"`
	// Type names the model in the registry: "acb4000", "mcd403".
	Type string `toml:"type"`
	// Images are the media, LUN 0 first (the ACB-4000 takes two drives).
	Images []string `toml:"images"`
	// ReadOnly opens every image read-only.
	ReadOnly bool `toml:"read_only"`
	// Geometry describes a raw image without a sidecar (a disk's name,
	// e.g. "st125", or CxHxS); empty = from the image's size.
	Geometry string `toml:"geometry"`
	// Interleave is the interleave a raw disk image was formatted at (a
	// copy of a drive does not record it); 0 = the model's default. An
	// image with a sidecar must agree with it.
	Interleave int `toml:"interleave"`
	// Params overrides the model's parameters (the package's Params value,
	// for benches and tests; nil = defaults). Not in machine files.
	Params any `toml:"-"`
	// Scratch says the images are throwaway (a bench's run makes and
	// deletes them): a model may then write them without syncing, so a
	// crash can lose what was written. Not in machine files.
	Scratch bool `toml:"-"`
}

// Device is an attached target model: the scsi.Device the engine serves,
// which owns the images it opened.
type Device interface {
	scsi.Device
	// Close releases the images (their locks); acknowledged writes are
	// already durable.
	Close() error
	// Counts returns the counters every model keeps (Stats).
	Counts() Stats
}

// Type is one kind of SCSI device a machine can hold.
type Type struct {
	Name string
	// Kind says what the device is to the host: a disk (the default) or
	// a tape. A program builds its machine by it (a machine with only
	// tapes has no disk to boot) without naming the model.
	Kind Kind
	// Options are the options of Spec the type takes beside ro, as a
	// command line spells them ("geometry=NAME", "interleave=N"), for
	// messages; the type's Attach checks them.
	Options []string
	// Attach opens s's images and connects a new device to bus as target
	// s.ID. On error nothing stays open or attached.
	Attach func(bus *scsi.Bus, s Spec) (Device, error)
}

// Kind is what a device is to the host's software.
type Kind uint8

const (
	// Disk is a direct-access device: blocks by address, a system to
	// boot from.
	Disk Kind = iota
	// Tape is a sequential-access device: blocks in order, no boot.
	Tape
)

// String names the kind for messages.
func (k Kind) String() string {
	if k == Tape {
		return "tape"
	}
	return "disk"
}

// Paneled is a Device that shows itself in a debugger's device panel: a
// title and lines of text, read at now without side effects. The model
// says what matters of its state; the debugger draws it without knowing
// the model.
type Paneled interface {
	// PanelTitle names the device at SCSI ID id ("ACB-4000 at SCSI ID 0").
	PanelTitle(id int) string
	// PanelLines is its state at now, one line a string.
	PanelLines(now sched.Time) []string
}

// Medium is a disk Device whose blocks a program may look at before it
// runs the machine (is block 0 a boot block?), without moving the heads,
// the engine or anything else the host could see.
type Medium interface {
	// PeekBlock reads block lba of the medium on lun into buf (a block).
	PeekBlock(lun int, lba int64, buf []byte) error
}

// Platter is where a disk drive's platter is at a time: how far it turned
// past the index, how long until the index passes the head again, and
// which logical block's sector the head is over.
type Platter struct {
	LUN       int
	Cyl, Head int
	// Angle is degrees past the index, 0 to 360.
	Angle   float64
	ToIndex sched.Time
	// LBA is the block whose sector slot the head is in, on the cylinder
	// and head it is on (-1: not a block of the medium).
	LBA int64
}

// Rotating is a disk Device whose platters turn: their positions at now,
// one per drive, read without side effects (a debugger's panel).
type Rotating interface {
	Platters(now sched.Time) []Platter
}

// Repositioner is a tape Device that counts its repositions: blocks it
// could not stream and backed up for (a debugger breaks on the counter).
type Repositioner interface {
	Repositions() int
}

// ParamsOf returns s.Params as a P, or def when it is nil. A value of
// another type is an error (a harness passed the wrong model's parameters).
func ParamsOf[P any](s Spec, def P) (P, error) {
	switch p := s.Params.(type) {
	case nil:
		return def, nil
	case P:
		return p, nil
	case *P:
		if p == nil {
			return def, nil
		}
		return *p, nil
	}
	return def, fmt.Errorf("SCSI ID %d (%s): parameters of type %T, want %T", s.ID, s.Type, s.Params, def)
}

// Saver is a Device whose complete state, its target engine's included,
// can be saved and restored (machine save states, docs/STATE.md). The
// bytes are the device's own encoding; the device restored is attached
// from the same Spec.
type Saver interface {
	SaveState() ([]byte, error)
	LoadState(data []byte) error
}

// saved is what SaveTarget encodes: the model's state and its target
// engine's.
type saved[S any] struct {
	Model  S
	Target scsi.TargetState
}

// SaveTarget is a model's Saver.SaveState: the gob encoding of the model's
// state (st, taken after the engine's) beside its target engine t's. name
// prefixes the errors.
func SaveTarget[S any](name string, t *scsi.Target, st func() S) ([]byte, error) {
	if t == nil {
		return nil, fmt.Errorf("%s: not attached to a target", name)
	}
	ts, err := t.State()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(saved[S]{st(), ts}); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return buf.Bytes(), nil
}

// LoadTarget is the matching Saver.LoadState: set restores the model from
// its part, then t takes the engine's.
func LoadTarget[S any](name string, t *scsi.Target, data []byte, set func(S) error) error {
	var sv saved[S]
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&sv); err != nil {
		return fmt.Errorf("%s: saved state: %w", name, err)
	}
	if t == nil {
		return fmt.Errorf("%s: not attached to a target", name)
	}
	if err := set(sv.Model); err != nil {
		return err
	}
	return t.SetState(sv.Target)
}

// Command is what every target model keeps of the command in progress, in
// the same way: its LUN and CDB, the status it will end with, and the short
// byte run (sense, mode data, a buffer) moving through the target engine.
// Transfers paced by mechanics (sectors, tape blocks) are the model's own;
// they move one callback per byte through the engine's continuations and
// one per sector or block through the model. The fields are exported so a
// model's save state holds them as they are.
type Command struct {
	LUN    int
	CDB    []byte
	Status byte
	Out    []byte // Send: the bytes being sent
	In     []byte // Receive: the bytes received so far
	InN    int    // Receive: how many to take
	Then   uint8  // Receive: the model's next step once they are in
}

// Continuation ops of the byte runs. A model numbers its own ops from
// OpModel on, so one Continue serves both.
const (
	OpSend    = 1 // Arg = index of the byte sent
	OpReceive = 2
	OpModel   = 3
)

// Start begins a command: its LUN from the CDB (or the IDENTIFY message).
func (c *Command) Start(t *scsi.Target, cdb []byte) {
	*c = Command{LUN: t.LUN(cdb), CDB: append([]byte(nil), cdb...)}
}

// Send starts DATA IN of data (a copy is kept). It reports false, sending
// nothing, when data is empty: the model ends the command itself.
func (c *Command) Send(t *scsi.Target, data []byte) bool {
	c.Out = append([]byte(nil), data...)
	if len(c.Out) == 0 {
		return false
	}
	t.SendK(scsi.DataIn, c.Out[0], scsi.Cont{Op: OpSend})
	return true
}

// Receive starts DATA OUT of n bytes; then is kept for the model. It
// reports false, taking nothing, when n is 0.
func (c *Command) Receive(t *scsi.Target, n int, then uint8) bool {
	c.In, c.InN, c.Then = make([]byte, 0, n), n, then
	if n == 0 {
		return false
	}
	t.ReceiveK(scsi.DataOut, scsi.Cont{Op: OpReceive})
	return true
}

// SenseReply is what REQUEST SENSE returns of a model's sense bytes for
// the CDB's allocation length: that many bytes at most, and an allocation
// length of 0 means 4 bytes, the non-extended sense [F SCSI-1].
func SenseReply(sense []byte, allocation byte) []byte {
	n := int(allocation)
	if n == 0 {
		n = 4
	}
	return sense[:min(n, len(sense))]
}

// Step is what Continue did with a continuation.
type Step uint8

const (
	Moving   Step = iota // the run goes on: the next byte is under way
	Sent                 // every byte of Out is sent
	Received             // In holds InN bytes; Then says what follows
	ModelOp              // not a run's op: the model's own
)

// Continue takes the engine's continuation k (b is the byte received, for
// DATA OUT) and moves the run on by one byte, or says that it ended.
func (c *Command) Continue(t *scsi.Target, k scsi.Cont, b byte) Step {
	switch k.Op {
	case OpSend:
		if i := k.Arg + 1; i < len(c.Out) {
			t.SendK(scsi.DataIn, c.Out[i], scsi.Cont{Op: OpSend, Arg: i})
			return Moving
		}
		return Sent
	case OpReceive:
		c.In = append(c.In, b)
		if len(c.In) < c.InN {
			t.ReceiveK(scsi.DataOut, scsi.Cont{Op: OpReceive})
			return Moving
		}
		return Received
	}
	return ModelOp
}

// Clone returns a deep copy (for save states: looking changes nothing).
func (c Command) Clone() Command {
	c.CDB, c.Out, c.In = CloneBytes(c.CDB), CloneBytes(c.Out), CloneBytes(c.In)
	return c
}

// CloneBytes is a copy of b that shares no memory with it, nil when b is
// empty (as gob decodes an empty slice), for the models' save states.
func CloneBytes(b []byte) []byte { return append([]byte(nil), b...) }

// Events is a model's own events as one group: named after its target once
// (sched.Event.Init), cancelled together when the bus is reset.
type Events []*sched.Event

// Cancel cancels every pending event of the group.
func (g Events) Cancel(s *sched.Scheduler) {
	if s == nil {
		return
	}
	for _, e := range g {
		s.Cancel(e)
	}
}

// Pending lists the names of the group's pending events (save states).
func (g Events) Pending() []string {
	var names []string
	for _, e := range g {
		if e.Pending() {
			names = append(names, e.Name())
		}
	}
	return names
}

// Stats is the shape of the counters every target model keeps; a model
// adds its own beside them (the tape's repositions).
type Stats struct {
	Commands      uint64 // CDBs taken
	Checks        uint64 // CHECK CONDITION statuses
	BlocksRead    uint64 // sectors or tape blocks read from the medium
	BlocksWritten uint64 // sectors or tape blocks written to the medium
	Seeks         uint64 // positioning moves
}

// Failer is a Device that can meet an error the machine must not run past
// (an image changed by another program while the machine had it open: its
// blocks can no longer be trusted, and writing would destroy the other
// program's work). The board gives it the function that stops the
// machine with that error; FailHook is the implementation to embed.
type Failer interface {
	SetFail(fail func(error))
}

// FailHook implements Failer for a model: it keeps the board's function,
// and Fail passes an error to it (nothing happens without a board, as in
// a model's own tests).
type FailHook struct{ fail func(error) }

// SetFail is Failer's method.
func (h *FailHook) SetFail(fail func(error)) { h.fail = fail }

// Fail stops the machine with err.
func (h *FailHook) Fail(err error) {
	if h.fail != nil {
		h.fail(err)
	}
}

// ExtendedSenseLength is the length of the extended sense ExtendedSense
// makes.
const ExtendedSenseLength = 18

// ExtendedSense is the 18-byte extended sense of a REQUEST SENSE
// [F SCSI-1]: byte 0 70h (bit 7: the information bytes hold a block),
// byte 2 the sense key (bit 6: end of medium), bytes 3-6 the block, byte 7
// the additional length (10), bytes 12-13 ASC and ASCQ.
func ExtendedSense(key, asc, ascq byte, eom, valid bool, info uint32) []byte {
	b := make([]byte, ExtendedSenseLength)
	b[0] = 0x70
	if valid {
		b[0] |= 0x80
		b[3], b[4], b[5], b[6] = byte(info>>24), byte(info>>16), byte(info>>8), byte(info)
	}
	b[2] = key & 0x0F
	if eom {
		b[2] |= 0x40
	}
	b[7] = ExtendedSenseLength - 8
	b[12], b[13] = asc, ascq
	return b
}
