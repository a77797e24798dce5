package mcd403

import (
	"errors"
	"fmt"
	"os"
	"sort"

	"github.com/lbplus/lbplus/devices/image"
)

// Sidecar values.
const (
	MetaKind    = "mcd403-tape"
	MetaVersion = 1

	// UnwrittenBlank: reading a block never written since the cartridge
	// was formatted gives CHECK CONDITION with BLANK CHECK, as a tape has
	// no data there [A].
	UnwrittenBlank = "blank-check"
	// UnwrittenZeros: unwritten blocks read back as zeros (for raw images
	// made from other data without a written list).
	UnwrittenZeros = "zeros"
)

// Meta is the tape image sidecar (FILE.toml).
type Meta struct {
	Kind         string `toml:"kind"`
	Version      int    `toml:"version"`
	BlockSize    int    `toml:"block_size"`
	Blocks       int    `toml:"blocks"`
	Interleave   int    `toml:"interleave"`
	WriteProtect bool   `toml:"write_protect"`
	// Unwritten says how blocks outside Written read back.
	Unwritten string `toml:"unwritten"`
	// Written lists the written logical blocks as inclusive [first, last]
	// ranges, ascending.
	Written [][]int `toml:"written"`
}

// NewMeta returns the sidecar of a blank cartridge formatted at interleave.
func NewMeta(interleave int) *Meta {
	p := DefaultParams()
	return &Meta{Kind: MetaKind, Version: MetaVersion, BlockSize: p.BlockSize, Blocks: p.Blocks,
		Interleave: interleave, Unwritten: UnwrittenBlank, Written: [][]int{}}
}

// ImageKind implements image.Kinded.
func (m *Meta) ImageKind() string { return MetaKind }

// Layout implements image.Meta.
func (m *Meta) Layout() (int, int64) { return m.BlockSize, int64(m.Blocks) }

// Validate implements image.Meta.
func (m *Meta) Validate() error {
	p := DefaultParams()
	switch {
	case m.Kind != MetaKind:
		return fmt.Errorf("kind %q is not %q (not a tape image)", m.Kind, MetaKind)
	case m.Version != MetaVersion:
		return fmt.Errorf("format version %d, this emulator reads version %d", m.Version, MetaVersion)
	case m.BlockSize != p.BlockSize || m.Blocks != p.Blocks:
		return fmt.Errorf("%d blocks of %d bytes: an MCD-403 cartridge holds %d blocks of %d bytes", m.Blocks, m.BlockSize, p.Blocks, p.BlockSize)
	case m.Interleave < 1 || m.Interleave > p.MaxInterleave:
		return fmt.Errorf("interleave %d out of range 1..%d", m.Interleave, p.MaxInterleave)
	case m.Unwritten != UnwrittenBlank && m.Unwritten != UnwrittenZeros:
		return fmt.Errorf("unwritten = %q, want %q or %q", m.Unwritten, UnwrittenBlank, UnwrittenZeros)
	}
	last := -1
	for _, r := range m.Written {
		if len(r) != 2 || r[0] > r[1] || r[0] <= last || r[1] >= m.Blocks {
			return fmt.Errorf("written range %v is not an ascending [first, last] within 0..%d", r, m.Blocks-1)
		}
		last = r[1]
	}
	return nil
}

// Tape is an open cartridge image.
type Tape struct {
	f       *image.File
	meta    Meta
	written []bool
	// scratch: a throwaway cartridge (Scratch); unsaved: its written
	// list has blocks the sidecar does not have yet.
	scratch, unsaved bool
}

// Create makes a blank cartridge image at path (a sparse raw file of 4848
// blocks of 8192 bytes and its sidecar) formatted at interleave.
func Create(path string, interleave int) error {
	return image.Create(path, NewMeta(interleave), 0)
}

// Open opens the tape image at path, locked against other emulators. A
// read-only image (or write_protect in the sidecar) is a write-protected
// cartridge.
func Open(path string, readOnly bool) (*Tape, error) {
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		if _, err := os.Stat(image.SidecarPath(path)); errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s: sidecar %s is missing (make cartridge images with `lbplus tape create`)", path, image.SidecarPath(path))
		}
	}
	var m Meta
	f, err := image.Open(path, &m, readOnly)
	if err != nil {
		return nil, err
	}
	t := &Tape{f: f, meta: m, written: make([]bool, m.Blocks)}
	for _, r := range m.Written {
		for b := r[0]; b <= r[1]; b++ {
			t.written[b] = true
		}
	}
	return t, nil
}

// Scratch makes the cartridge a throwaway one, as a bench's run makes
// and deletes (image.File.Scratch): its blocks are written without a
// sync, and its written list reaches the sidecar when it closes rather
// than with each new block. A crash may lose what it wrote; nothing the
// drive or the host sees changes (the drive reads the list it keeps,
// not the sidecar).
func (t *Tape) Scratch() {
	t.scratch = true
	t.f.Scratch()
}

// Path is the image file name.
func (t *Tape) Path() string { return t.f.Path() }

// Meta returns a copy of the sidecar as last saved.
func (t *Tape) Meta() Meta { return t.meta }

// Interleave is the formatted interleave.
func (t *Tape) Interleave() int { return t.meta.Interleave }

// WriteProtected reports whether writes are refused.
func (t *Tape) WriteProtected() bool { return t.meta.WriteProtect || t.f.ReadOnly() }

// Written reports whether block b holds data.
func (t *Tape) Written(b int) bool { return b >= 0 && b < len(t.written) && t.written[b] }

// ReadBlock reads block b into buf. blank is true when the block was never
// written and the sidecar asks for BLANK CHECK.
func (t *Tape) ReadBlock(b int, buf []byte) (blank bool, err error) {
	if !t.written[b] && t.meta.Unwritten == UnwrittenBlank {
		return true, nil
	}
	return false, t.f.ReadBlock(int64(b), buf)
}

// WriteBlock writes block b durably: the data is written and fsynced, then
// the sidecar's written list is replaced atomically. A kill at any point
// leaves either the old state or the block fully recorded; the drive
// reports GOOD only after this returns.
func (t *Tape) WriteBlock(b int, buf []byte) error {
	if err := t.f.WriteBlock(int64(b), buf); err != nil {
		return err
	}
	if t.scratch {
		if !t.written[b] {
			t.written[b], t.unsaved = true, true
		}
		return nil
	}
	if err := t.f.Sync(); err != nil {
		return err
	}
	if t.written[b] {
		return nil
	}
	t.written[b] = true
	t.meta.Written = ranges(t.written)
	if err := t.f.SaveMeta(&t.meta); err != nil {
		t.written[b] = false
		t.meta.Written = ranges(t.written)
		return err
	}
	return nil
}

// Reformat sets a new interleave. The old layout's blocks are unreadable
// under the new one, so the written list is cleared [A].
func (t *Tape) Reformat(interleave int) error {
	old := t.meta
	t.meta.Interleave = interleave
	t.meta.Written = [][]int{}
	if err := t.f.SaveMeta(&t.meta); err != nil {
		t.meta = old
		return err
	}
	for i := range t.written {
		t.written[i] = false
	}
	return nil
}

// Close releases the image and its lock, saving a scratch cartridge's
// written list first.
func (t *Tape) Close() error {
	var err error
	if t.unsaved {
		t.meta.Written = ranges(t.written)
		err = t.f.SaveMeta(&t.meta)
		t.unsaved = false
	}
	if cerr := t.f.Close(); err == nil {
		err = cerr
	}
	return err
}

func ranges(w []bool) [][]int {
	out := [][]int{}
	for b := 0; b < len(w); b++ {
		if !w[b] {
			continue
		}
		e := b
		for e+1 < len(w) && w[e+1] {
			e++
		}
		out = append(out, []int{b, e})
		b = e
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}
