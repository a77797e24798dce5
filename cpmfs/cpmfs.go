// Package cpmfs reads and writes files in a CP/M 2.2 file system on a disk
// image: the directory of 32-byte entries at the start of the data area,
// allocation blocks, extents, user areas. It is what `lbplus cpm` uses to
// move files in and out of lbplus's hard disk partitions and Ampro floppies
// without cpmtools, and how the default system disk gets its files. The
// geometry is a cpmtools disk definition (docs/diskdefs and amp1-amp4), so
// both tools see the same files.
//
// Known inaccuracies / assumptions: no time stamps, passwords or labels
// (CP/M 2.2 has none); a file written here fills blocks in ascending order
// from the lowest free one; the last record is padded with 1Ah (^Z), as
// CP/M text files are.
package cpmfs

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Geometry is a CP/M disk definition in cpmtools' terms.
type Geometry struct {
	Name      string
	SecLen    int // physical sector bytes (128-1024)
	SecTrk    int // sectors per track
	Tracks    int // tracks, the system tracks included
	BlockSize int // allocation block bytes (1024-16384)
	MaxDir    int // directory entries
	BootTrk   int // system tracks before the data area
}

// DSM is the highest block number.
func (g Geometry) DSM() int { return (g.Tracks-g.BootTrk)*g.SecLen*g.SecTrk/g.BlockSize - 1 }

// wide reports whether block numbers take two bytes in a directory entry.
func (g Geometry) wide() bool { return g.DSM() > 255 }

// ptrs is the number of block pointers in an entry (16 or 8).
func (g Geometry) ptrs() int {
	if g.wide() {
		return 8
	}
	return 16
}

// entryRecords is the 128-byte records one directory entry covers.
func (g Geometry) entryRecords() int { return g.ptrs() * g.BlockSize / 128 }

func (g Geometry) dirBlocks() int { return (g.MaxDir*32 + g.BlockSize - 1) / g.BlockSize }

// Validate checks that the geometry is one CP/M 2.2 can have.
func (g Geometry) Validate() error {
	switch {
	case g.SecLen < 128 || g.SecLen > 1024 || g.SecLen&(g.SecLen-1) != 0:
		return fmt.Errorf("%s: sector length %d", g.Name, g.SecLen)
	case g.BlockSize < 1024 || g.BlockSize > 16384 || g.BlockSize&(g.BlockSize-1) != 0:
		return fmt.Errorf("%s: block size %d", g.Name, g.BlockSize)
	case g.SecTrk < 1 || g.Tracks <= g.BootTrk || g.BootTrk < 0:
		return fmt.Errorf("%s: %d tracks of %d sectors, %d system tracks", g.Name, g.Tracks, g.SecTrk, g.BootTrk)
	case g.DSM() < g.dirBlocks() || g.DSM() > 65535:
		return fmt.Errorf("%s: %d blocks", g.Name, g.DSM()+1)
	case g.MaxDir < 1 || g.dirBlocks() > 16:
		return fmt.Errorf("%s: %d directory entries", g.Name, g.MaxDir)
	}
	return nil
}

// Sectors is the disk under the file system: sector s (0-based, in
// cpmtools' order) of track t.
type Sectors interface {
	ReadSector(track, sector int, buf []byte) error
	WriteSector(track, sector int, buf []byte) error
}

// File is a directory listing line.
type File struct {
	User int
	Name string // NAME.EXT, upper case, no padding
	Size int    // bytes: records x 128
}

// FS is an open file system. Reads and writes go straight to the disk.
type FS struct {
	g   Geometry
	dev Sectors
	dir []byte // the directory, MaxDir x 32 bytes
}

// Open reads the directory of the file system on dev.
func Open(dev Sectors, g Geometry) (*FS, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	fs := &FS{g: g, dev: dev, dir: make([]byte, g.MaxDir*32)}
	for b := 0; b < g.dirBlocks(); b++ {
		buf, err := fs.readBlock(b)
		if err != nil {
			return nil, err
		}
		copy(fs.dir[b*g.BlockSize:], buf)
	}
	return fs, nil
}

// place is the track and sector of byte offset off of the data area.
func (fs *FS) place(off int) (track, sector int) {
	s := off / fs.g.SecLen
	return fs.g.BootTrk + s/fs.g.SecTrk, s % fs.g.SecTrk
}

func (fs *FS) readBlock(b int) ([]byte, error) {
	buf := make([]byte, fs.g.BlockSize)
	for o := 0; o < len(buf); o += fs.g.SecLen {
		t, s := fs.place(b*fs.g.BlockSize + o)
		if err := fs.dev.ReadSector(t, s, buf[o:o+fs.g.SecLen]); err != nil {
			return nil, err
		}
	}
	return buf, nil
}

func (fs *FS) writeBlock(b int, buf []byte) error {
	for o := 0; o < len(buf); o += fs.g.SecLen {
		t, s := fs.place(b*fs.g.BlockSize + o)
		if err := fs.dev.WriteSector(t, s, buf[o:o+fs.g.SecLen]); err != nil {
			return err
		}
	}
	return nil
}

// writeDir writes the directory back.
func (fs *FS) writeDir() error {
	for b := 0; b < fs.g.dirBlocks(); b++ {
		buf := make([]byte, fs.g.BlockSize)
		copy(buf, fs.dir[b*fs.g.BlockSize:min(len(fs.dir), (b+1)*fs.g.BlockSize)])
		if (b+1)*fs.g.BlockSize > len(fs.dir) {
			// The tail of the last directory block that holds no entries.
			for i := len(fs.dir) - b*fs.g.BlockSize; i < len(buf); i++ {
				buf[i] = 0xE5
			}
		}
		if err := fs.writeBlock(b, buf); err != nil {
			return err
		}
	}
	return nil
}

func (fs *FS) entry(i int) []byte { return fs.dir[i*32 : i*32+32] }

// used reports whether entry e is a file's (user 0-15).
func used(e []byte) bool { return e[0] <= 15 }

// name83 splits NAME.EXT into CP/M's 8+3 upper-case, space-padded form.
func name83(name string) ([11]byte, error) {
	var out [11]byte
	for i := range out {
		out[i] = ' '
	}
	base, ext, _ := strings.Cut(strings.ToUpper(name), ".")
	if base == "" || len(base) > 8 || len(ext) > 3 {
		return out, fmt.Errorf("%q: not a CP/M file name (NAME.EXT, at most 8 and 3 letters)", name)
	}
	for _, c := range base + ext {
		if c <= ' ' || c >= 0x7F || strings.ContainsRune("<>.,;:=?*[]", c) {
			return out, fmt.Errorf("%q: character %q is not allowed in a CP/M file name", name, c)
		}
	}
	copy(out[:], base)
	copy(out[8:], ext)
	return out, nil
}

func entryName(e []byte) string {
	var b []byte
	for _, c := range e[1:9] {
		if c&0x7F != ' ' {
			b = append(b, c&0x7F)
		}
	}
	ext := []byte{}
	for _, c := range e[9:12] {
		if c&0x7F != ' ' {
			ext = append(ext, c&0x7F)
		}
	}
	if len(ext) > 0 {
		b = append(append(b, '.'), ext...)
	}
	return string(b)
}

// extentNo is an entry's extent number (EX + 32 S2).
func extentNo(e []byte) int { return int(e[12]&0x1F) + int(e[14]&0x3F)*32 }

// entries returns the indices of the file's entries in extent order.
func (fs *FS) entries(user int, n [11]byte) []int {
	var idx []int
	for i := 0; i < fs.g.MaxDir; i++ {
		e := fs.entry(i)
		if used(e) && int(e[0]) == user && sameName(e[1:12], n[:]) {
			idx = append(idx, i)
		}
	}
	sort.Slice(idx, func(a, b int) bool { return extentNo(fs.entry(idx[a])) < extentNo(fs.entry(idx[b])) })
	return idx
}

func sameName(a, b []byte) bool {
	for i := range a {
		if a[i]&0x7F != b[i] {
			return false
		}
	}
	return true
}

// blocks returns the block numbers an entry allocates.
func (fs *FS) blocks(e []byte) []int {
	var out []int
	for k := 0; k < fs.g.ptrs(); k++ {
		var b int
		if fs.g.wide() {
			b = int(e[16+2*k]) | int(e[17+2*k])<<8
		} else {
			b = int(e[16+k])
		}
		if b != 0 {
			out = append(out, b)
		}
	}
	return out
}

// entryRecs is the number of records an entry holds: the full logical
// extents before its last one, plus RC.
func (fs *FS) entryRecs(e []byte) int {
	exm := fs.g.entryRecords()/128 - 1
	return (extentNo(e)&exm)*128 + int(e[15])
}

// List returns the files, sorted by user and name.
func (fs *FS) List() []File {
	sizes := map[[2]string]int{}
	for i := 0; i < fs.g.MaxDir; i++ {
		e := fs.entry(i)
		if !used(e) {
			continue
		}
		k := [2]string{fmt.Sprint(e[0]), entryName(e)}
		sizes[k] += fs.entryRecs(e) * 128
	}
	var out []File
	for k, sz := range sizes {
		var u int
		fmt.Sscan(k[0], &u)
		out = append(out, File{User: u, Name: k[1], Size: sz})
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].User != out[b].User {
			return out[a].User < out[b].User
		}
		return out[a].Name < out[b].Name
	})
	return out
}

// ErrNotFound is returned for a file that is not in the directory.
var ErrNotFound = errors.New("no such file")

// Read returns the whole records of the file (a text file ends at its
// first 1Ah; that is left to the caller).
func (fs *FS) Read(user int, name string) ([]byte, error) {
	n, err := name83(name)
	if err != nil {
		return nil, err
	}
	idx := fs.entries(user, n)
	if len(idx) == 0 {
		return nil, fmt.Errorf("%d:%s: %w", user, name, ErrNotFound)
	}
	var out []byte
	for _, i := range idx {
		e := fs.entry(i)
		recs := fs.entryRecs(e)
		var data []byte
		for _, b := range fs.blocks(e) {
			buf, err := fs.readBlock(b)
			if err != nil {
				return nil, err
			}
			data = append(data, buf...)
		}
		if recs*128 > len(data) {
			return nil, fmt.Errorf("%d:%s: extent %d holds %d records in %d blocks", user, name, extentNo(e), recs, len(fs.blocks(e)))
		}
		out = append(out, data[:recs*128]...)
	}
	return out, nil
}

// Delete removes the file's entries (its blocks become free).
func (fs *FS) Delete(user int, name string) error {
	n, err := name83(name)
	if err != nil {
		return err
	}
	idx := fs.entries(user, n)
	if len(idx) == 0 {
		return fmt.Errorf("%d:%s: %w", user, name, ErrNotFound)
	}
	for _, i := range idx {
		fs.entry(i)[0] = 0xE5
	}
	return fs.writeDir()
}

// Write stores data as the file (replacing one of that name), padding the
// last record with 1Ah. The data blocks are written before the directory,
// so an interrupted write leaves the old directory.
func (fs *FS) Write(user int, name string, data []byte) error {
	if user < 0 || user > 15 {
		return fmt.Errorf("user %d: CP/M has users 0-15", user)
	}
	n, err := name83(name)
	if err != nil {
		return err
	}
	old := fs.entries(user, n)
	inUse := make([]bool, fs.g.DSM()+1)
	for b := 0; b < fs.g.dirBlocks(); b++ {
		inUse[b] = true
	}
	isOld := map[int]bool{}
	for _, i := range old {
		isOld[i] = true
	}
	for i := 0; i < fs.g.MaxDir; i++ {
		if e := fs.entry(i); used(e) && !isOld[i] {
			for _, b := range fs.blocks(e) {
				if b <= fs.g.DSM() {
					inUse[b] = true
				}
			}
		}
	}
	recs := (len(data) + 127) / 128
	padded := append(append([]byte(nil), data...), bytes.Repeat([]byte{0x1A}, recs*128-len(data))...)
	nEntries := max(1, (recs+fs.g.entryRecords()-1)/fs.g.entryRecords())
	perBlock := fs.g.BlockSize / 128
	var alloc []int
	for b := 0; b <= fs.g.DSM() && len(alloc) < (recs+perBlock-1)/perBlock; b++ {
		if !inUse[b] {
			alloc = append(alloc, b)
		}
	}
	if len(alloc) < (recs+perBlock-1)/perBlock {
		return fmt.Errorf("%d:%s: disk full (%d bytes do not fit)", user, name, len(data))
	}
	free := 0
	for i := 0; i < fs.g.MaxDir; i++ {
		if !used(fs.entry(i)) || isOld[i] {
			free++
		}
	}
	if free < nEntries {
		return fmt.Errorf("%d:%s: directory full (%d entries)", user, name, fs.g.MaxDir)
	}
	for k, b := range alloc {
		buf := make([]byte, fs.g.BlockSize)
		copy(buf, padded[min(len(padded), k*fs.g.BlockSize):min(len(padded), (k+1)*fs.g.BlockSize)])
		if err := fs.writeBlock(b, buf); err != nil {
			return err
		}
	}
	for _, i := range old {
		fs.entry(i)[0] = 0xE5
	}
	slot := 0
	for x := 0; x < nEntries; x++ {
		for used(fs.entry(slot)) {
			slot++
		}
		e := fs.entry(slot)
		for i := range e {
			e[i] = 0
		}
		e[0] = byte(user)
		copy(e[1:12], n[:])
		first := x * fs.g.entryRecords()
		nrec := min(recs-first, fs.g.entryRecords())
		last := 0 // logical extent of the entry's last record
		rc := 0
		if nrec > 0 {
			last = (first + nrec - 1) / 128
			rc = nrec - (nrec-1)/128*128
		}
		e[12] = byte(last & 0x1F)
		e[14] = byte(last >> 5)
		e[15] = byte(rc)
		for k := 0; k < fs.g.ptrs(); k++ {
			bi := x*fs.g.ptrs() + k
			if bi*perBlock >= recs || bi >= len(alloc) {
				break
			}
			if fs.g.wide() {
				e[16+2*k], e[17+2*k] = byte(alloc[bi]), byte(alloc[bi]>>8)
			} else {
				e[16+k] = byte(alloc[bi])
			}
		}
	}
	return fs.writeDir()
}
