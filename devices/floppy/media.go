package floppy

import (
	"fmt"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/sched"
)

// Store is where a medium's sectors live: an open *fdimage.Image, or a
// disk in memory (MemoryStore). Writes must be durable when they return.
type Store interface {
	Disk() *fdimage.Disk
	WriteSector(c, h, i int, s fdimage.Sector) error
	WriteTrack(c, h int, t fdimage.Track) error
	ReadOnly() bool
}

// MemoryStore keeps a disk in memory only (tests, benches).
type MemoryStore struct {
	D         *fdimage.Disk
	Protected bool
}

func (m *MemoryStore) Disk() *fdimage.Disk { return m.D }
func (m *MemoryStore) ReadOnly() bool      { return m.Protected }

func (m *MemoryStore) WriteSector(c, h, i int, s fdimage.Sector) error {
	if m.Protected {
		return fmt.Errorf("write-protected")
	}
	t := m.D.Track(c, h)
	if t == nil || i >= len(t.Sectors) {
		return fmt.Errorf("no sector %d on cylinder %d head %d", i, c, h)
	}
	s.Data = append([]byte(nil), s.Data...)
	t.Sectors[i] = s
	return nil
}

func (m *MemoryStore) WriteTrack(c, h int, t fdimage.Track) error {
	if m.Protected {
		return fmt.Errorf("write-protected")
	}
	tr := m.D.Track(c, h)
	if tr == nil {
		return fmt.Errorf("no cylinder %d head %d on this disk", c, h)
	}
	*tr = t.Clone()
	tr.Cyl, tr.Head = c, h
	return nil
}

// Media is a disk: its store and where every field of every track lies.
type Media struct {
	store     Store
	protected bool // write-protect tab (or a read-only file)
	pos       map[int]*Positions
	name      string
}

// NewMedia wraps a store. protected adds a write-protect tab to a
// writable store; a read-only store is always protected.
func NewMedia(name string, st Store, protected bool) *Media {
	return &Media{store: st, protected: protected || st.ReadOnly(), pos: map[int]*Positions{}, name: name}
}

// Name labels the medium (its file name).
func (m *Media) Name() string { return m.name }

// Store is the medium's backing store.
func (m *Media) Store() Store { return m.store }

// Protected reports the write-protect sensor.
func (m *Media) Protected() bool { return m.protected }

// Track returns track (c, h) and its positions, or nil if the disk has no
// such track or it is unformatted.
func (m *Media) Track(c, h int, rev sched.Time) (*fdimage.Track, *Positions) {
	d := m.store.Disk()
	t := d.Track(c, h)
	if t == nil || len(t.Sectors) == 0 {
		return nil, nil
	}
	k := c*2 + h
	p := m.pos[k]
	if p == nil || len(p.IDAt) != len(t.Sectors) {
		sp := StandardLayout(t, rev)
		p = &sp
		m.pos[k] = p
	}
	return t, p
}

// WriteSector stores the data field of sector i of track (c, h), written
// starting at cell dataAt. It returns when the store has it durably.
func (m *Media) WriteSector(c, h, i int, s fdimage.Sector, dataAt int) error {
	if err := m.store.WriteSector(c, h, i, s); err != nil {
		return err
	}
	if p := m.pos[c*2+h]; p != nil && i < len(p.DataAt) {
		p.DataAt[i] = dataAt
	}
	return nil
}

// WriteTrack stores a track formatted by Write Track with the positions it
// was written at.
func (m *Media) WriteTrack(c, h int, t fdimage.Track, p Positions) error {
	if err := m.store.WriteTrack(c, h, t); err != nil {
		return err
	}
	m.pos[c*2+h] = &p
	return nil
}
