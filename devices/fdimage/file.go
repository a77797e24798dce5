package fdimage

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/lbplus/lbplus/devices/image"
	"github.com/lbplus/lbplus/internal/durable"
)

// Kind is the file format of an image.
type Kind int

const (
	Raw Kind = iota // sector dump in cylinder, head, record order
	IMD             // ImageDisk
	TD0             // Teledisk (read only)
)

func (k Kind) String() string {
	switch k {
	case IMD:
		return "IMD"
	case TD0:
		return "Teledisk"
	}
	return "raw"
}

// KindOf guesses the kind from the file name: .imd is ImageDisk, .td0
// Teledisk, anything else raw.
func KindOf(path string) Kind {
	switch ext := filepath.Ext(path); {
	case strings.EqualFold(ext, ".imd"):
		return IMD
	case strings.EqualFold(ext, ".td0"):
		return TD0
	}
	return Raw
}

// Options are the mount options of an image (the ",format=" and ",ro" of
// --fd0).
type Options struct {
	Format   string // raw images: amp1-amp4 or a geometry (ParseFormat); empty: by size
	ReadOnly bool   // open read-only: the drive sees a write-protected disk
	// Convert, for a Teledisk image (which lbplus never writes), names a
	// new ImageDisk file: the image is converted to it and it is opened
	// instead, writable. It must not exist yet.
	Convert string
}

// Image is an open, locked image file and the disk it holds.
type Image struct {
	path     string
	f        *os.File
	kind     Kind
	format   Format // raw images only
	disk     *Disk
	readOnly bool
	header   string        // IMD first line, kept on rewrite
	offsets  map[int]int64 // IMD: (track*256+sector) -> file offset of uncompressed data
	td0      TD0Info       // Teledisk only
}

// Open opens and locks the image at path. A file the process may not write
// is opened read-only (write-protected) even without o.ReadOnly, and so is
// a Teledisk image: lbplus never writes one. With o.Convert a Teledisk
// image is converted to that new ImageDisk file, which is opened instead.
func Open(path string, o Options) (*Image, error) {
	if o.Convert != "" {
		return openConverted(path, o)
	}
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: no such floppy image", path)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s: is a directory, not a floppy image", path)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	if st.Size() > MaxFileBytes {
		return nil, fmt.Errorf("%s: %d bytes, larger than any floppy image (at most %d)", path, st.Size(), MaxFileBytes)
	}
	// A Teledisk image, by its name or its header, is never written: it
	// is opened, and locked, for reading only.
	ro := o.ReadOnly || KindOf(path) == TD0 || startsTD0(path)
	var f *os.File
	if !ro {
		f, err = os.OpenFile(path, os.O_RDWR, 0)
		if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
			ro = true
		} else if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	if ro {
		if f, err = os.Open(path); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	if err := image.Lock(f, !ro); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	im := &Image{path: path, f: f, readOnly: ro}
	if err := im.load(o); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return im, nil
}

// openConverted converts the Teledisk image at path to the new ImageDisk
// file o.Convert and opens that.
func openConverted(path string, o Options) (*Image, error) {
	if KindOf(o.Convert) != IMD {
		return nil, fmt.Errorf("%s: convert=%s: the copy of a Teledisk image is an ImageDisk file (.imd)", path, o.Convert)
	}
	src, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	kind, d, header := src.kind, src.disk, src.IMDHeader()
	src.Close()
	if kind != TD0 {
		return nil, fmt.Errorf("%s: convert= is for Teledisk (.td0) images; this is %s, opened as it is without it", path, kind)
	}
	if _, err := os.Lstat(o.Convert); err == nil {
		return nil, fmt.Errorf("%s: convert=%s already exists: open that image itself, or name a new file", path, o.Convert)
	}
	if err := Create(o.Convert, Format{}, d, header); err != nil {
		return nil, err
	}
	return Open(o.Convert, Options{ReadOnly: o.ReadOnly})
}

// IMDHeader is the first line an ImageDisk copy of this image gets: the
// image's own (IMD), or one dated from the Teledisk comment block, or
// undated.
func (im *Image) IMDHeader() string {
	switch {
	case im.header != "":
		return im.header
	case !im.td0.Created.IsZero():
		return "IMD 1.18: " + im.td0.Created.Format("02/01/2006 15:04:05")
	}
	return "IMD 1.18: lbplus"
}

// startsTD0 reports whether the file at path begins with a Teledisk header.
func startsTD0(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var h [12]byte
	n, _ := io.ReadFull(f, h[:])
	return IsTD0(h[:n])
}

// MaxFileBytes bounds a floppy image file, which is read whole: the
// largest format Validate accepts holds 85 cylinders x 2 heads x 6250
// bytes a track = 1.06 MB of data; an ImageDisk file adds a few bytes a
// track and sector and its comment. A larger file is no floppy image.
const MaxFileBytes = 2 << 20

func (im *Image) load(o Options) error {
	b, err := os.ReadFile(im.path)
	if err != nil {
		return err
	}
	if KindOf(im.path) == TD0 || IsTD0(b) {
		im.kind = TD0
		d, info, err := DecodeTD0(b)
		if err != nil {
			return err
		}
		im.disk, im.td0 = d, info
		return nil
	}
	if KindOf(im.path) == IMD || strings.HasPrefix(string(b[:min(len(b), 4)]), "IMD ") {
		im.kind = IMD
		im.offsets = map[int]int64{}
		d, err := DecodeIMD(b, im.offsets)
		if err != nil {
			return err
		}
		im.disk = d
		if nl := strings.IndexAny(string(b[:min(len(b), 200)]), "\r\n"); nl >= 0 {
			im.header = string(b[:nl])
		}
		return nil
	}
	im.kind = Raw
	f, err := RawFormat(int64(len(b)), o.Format)
	if err != nil {
		return err
	}
	im.format = f
	im.disk = f.NewDisk(0)
	for c := 0; c < f.Cylinders; c++ {
		for h := 0; h < f.Heads; h++ {
			t := im.disk.Track(c, h)
			for i := range t.Sectors {
				off := f.rawOffset(c, h, t.Sectors[i].R)
				copy(t.Sectors[i].Data, b[off:off+int64(f.Size)])
			}
		}
	}
	return nil
}

// RawFormat picks the format of a raw image of size bytes: the named one
// (which must match the size), or the one Ampro format of that size. A size
// two formats share is refused with the choices named.
func RawFormat(size int64, name string) (Format, error) {
	if name != "" {
		f, err := ParseFormat(name)
		if err != nil {
			return Format{}, err
		}
		if f.RawSize() != size {
			return Format{}, fmt.Errorf("raw image of %d bytes, but format %s needs %d bytes", size, f.Name, f.RawSize())
		}
		return f, nil
	}
	var match, all []string
	var found Format
	for _, f := range Formats {
		all = append(all, fmt.Sprintf("%s %d", f.Name, f.RawSize()))
		if f.RawSize() == size {
			match = append(match, f.Name)
			found = f
		}
	}
	switch len(match) {
	case 1:
		return found, nil
	case 0:
		return Format{}, fmt.Errorf("raw image of %d bytes matches no format (%s bytes); name a geometry with format=CxHxSxSIZE", size, strings.Join(all, ", "))
	default:
		return Format{}, fmt.Errorf("raw image of %d bytes is ambiguous: it could be %s; name one with format=", size, strings.Join(match, " or "))
	}
}

func (f Format) rawOffset(c, h int, r byte) int64 {
	return ((int64(c)*int64(f.Heads)+int64(h))*int64(f.Sectors) + int64(int(r)-f.FirstID)) * int64(f.Size)
}

// Path is the image's file name.
func (im *Image) Path() string { return im.path }

// Kind is the image's file format.
func (im *Image) Kind() Kind { return im.kind }

// TD0Info is what a Teledisk image's header and comment say (zero for
// other kinds).
func (im *Image) TD0Info() TD0Info { return im.td0 }

// Format is the geometry of a raw image (zero for IMD and Teledisk).
func (im *Image) Format() Format { return im.format }

// Disk is the medium's contents. Callers must change it only through
// WriteSector and WriteTrack.
func (im *Image) Disk() *Disk { return im.disk }

// ReadOnly reports whether the image is write-protected.
func (im *Image) ReadOnly() bool { return im.readOnly }

func (im *Image) writable() error {
	if im.kind == TD0 {
		return fmt.Errorf("%s: write-protected: lbplus never writes a Teledisk image (convert it: lbplus floppy convert %s NEW.imd, or mount it with ,convert=NEW.imd)", im.path, im.path)
	}
	if im.readOnly {
		return fmt.Errorf("%s: write-protected", im.path)
	}
	return nil
}

// WriteSector stores s as sector i of track (c, h), in the file (fsynced)
// before the disk in memory, and returns only then.
func (im *Image) WriteSector(c, h, i int, s Sector) error {
	if err := im.writable(); err != nil {
		return err
	}
	t := im.disk.Track(c, h)
	if t == nil || i < 0 || i >= len(t.Sectors) {
		return fmt.Errorf("%s: no sector %d on cylinder %d head %d", im.path, i, c, h)
	}
	if len(s.Data) != s.Size() {
		return fmt.Errorf("%s: %d data bytes for a %d-byte sector", im.path, len(s.Data), s.Size())
	}
	if im.kind == Raw {
		nt := t.Clone()
		nt.Sectors[i] = s
		if err := im.format.Holds(&nt); err != nil {
			return fmt.Errorf("%s: %w", im.path, err)
		}
		if _, err := im.f.WriteAt(s.Data, im.format.rawOffset(c, h, s.R)); err != nil {
			return fmt.Errorf("%s: %w", im.path, err)
		}
		if err := im.f.Sync(); err != nil {
			return fmt.Errorf("%s: %w", im.path, err)
		}
		t.Sectors[i] = cloneSector(s)
		return nil
	}
	old := t.Sectors[i]
	key := (c*im.disk.Heads+h)*256 + i
	if off, ok := im.offsets[key]; ok && old.Deleted == s.Deleted && old.BadCRC == s.BadCRC &&
		old.N == s.N && old.C == s.C && old.H == s.H && old.R == s.R {
		if _, err := im.f.WriteAt(s.Data, off); err != nil {
			return fmt.Errorf("%s: %w", im.path, err)
		}
		if err := im.f.Sync(); err != nil {
			return fmt.Errorf("%s: %w", im.path, err)
		}
		t.Sectors[i] = cloneSector(s)
		return nil
	}
	nd := *im.disk
	nd.Tracks = append([]Track(nil), im.disk.Tracks...)
	nt := t.Clone()
	nt.Sectors[i] = cloneSector(s)
	nd.Tracks[c*im.disk.Heads+h] = nt
	return im.rewrite(&nd)
}

func cloneSector(s Sector) Sector {
	s.Data = append([]byte(nil), s.Data...)
	return s
}

// WriteTrack replaces track (c, h) with t (Write Track formatting). A raw
// image refuses a track it cannot hold, with the reason; nothing is written
// then.
func (im *Image) WriteTrack(c, h int, t Track) error {
	if err := im.writable(); err != nil {
		return err
	}
	t = t.Clone()
	t.Cyl, t.Head = c, h
	if im.kind == Raw {
		if im.disk.Track(c, h) == nil {
			return fmt.Errorf("%s: a raw %s image has no cylinder %d head %d", im.path, im.format.Name, c, h)
		}
		if err := im.format.Holds(&t); err != nil {
			return fmt.Errorf("%s: %w", im.path, err)
		}
		for _, s := range t.Sectors {
			if _, err := im.f.WriteAt(s.Data, im.format.rawOffset(c, h, s.R)); err != nil {
				return fmt.Errorf("%s: %w", im.path, err)
			}
		}
		if err := im.f.Sync(); err != nil {
			return fmt.Errorf("%s: %w", im.path, err)
		}
		*im.disk.Track(c, h) = t
		return nil
	}
	nd := *im.disk
	if c >= nd.Cylinders || h >= nd.Heads {
		g := NewDisk(max(c+1, nd.Cylinders), max(h+1, nd.Heads))
		for _, ot := range nd.Tracks {
			*g.Track(ot.Cyl, ot.Head) = ot
		}
		g.Comment = nd.Comment
		nd = *g
	} else {
		nd.Tracks = append([]Track(nil), nd.Tracks...)
	}
	*nd.Track(c, h) = t
	return im.rewrite(&nd)
}

// rewrite replaces the IMD file with nd: a temporary file is written,
// fsynced and renamed over the image, then locked before the old
// descriptor (and its lock) is closed.
func (im *Image) rewrite(nd *Disk) error {
	header := im.header
	if header == "" {
		header = "IMD 1.18: lbplus"
	}
	offs := map[int]int64{}
	data := EncodeIMD(nd, header, false, offs)
	// A unique temporary beside the image: a fixed FILE.tmp could be a
	// file of the user's.
	f, err := os.CreateTemp(filepath.Dir(im.path), "."+filepath.Base(im.path)+".*.tmp")
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err != nil {
		if f != nil {
			f.Close()
			os.Remove(f.Name())
		}
		return fmt.Errorf("%s: %w", im.path, err)
	}
	tmp := f.Name()
	if err := image.Lock(f, true); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("%s: %w", im.path, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = os.Rename(tmp, im.path)
	}
	if err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("%s: %w", im.path, err)
	}
	syncDir(im.path)
	im.f.Close()
	im.f, im.disk, im.offsets = f, nd, offs
	return nil
}

// Close syncs, unlocks and closes the image.
func (im *Image) Close() error {
	if im.f == nil {
		return nil
	}
	var err error
	if !im.readOnly {
		err = im.f.Sync()
	}
	if cerr := im.f.Close(); err == nil {
		err = cerr
	}
	im.f = nil
	return err
}

// Create writes a new image of disk d at path (raw or IMD by the file
// name's extension; a raw image needs d to be regular in f). It refuses to
// replace an existing file and builds the image under a temporary name.
// header is the IMD first line (the caller supplies the date).
func Create(path string, f Format, d *Disk, header string) error {
	if _, err := os.Lstat(path); err == nil {
		return fmt.Errorf("%s: already exists (remove it first to make a new image)", path)
	}
	return write(path, f, d, header)
}

// Replace is Create over an existing file: the new image is built under a
// temporary name and renamed over it, so the old one stays whole until
// the new one is. A file an emulator has open (locked) is refused.
func Replace(path string, f Format, d *Disk, header string) error {
	if image.InUse(path) {
		return fmt.Errorf("%s: image is in use (an emulator has it open)", path)
	}
	return write(path, f, d, header)
}

func write(path string, f Format, d *Disk, header string) error {
	var data []byte
	switch KindOf(path) {
	case IMD:
		data = EncodeIMD(d, header, false, nil)
	case TD0:
		return fmt.Errorf("%s: lbplus does not write Teledisk images (write an .imd or a raw image)", path)
	default:
		if d.Cylinders != f.Cylinders || d.Heads != f.Heads {
			return fmt.Errorf("%s: the disk has %d cylinders x %s; a raw %s image holds %d x %d",
				path, d.Cylinders, plural(d.Heads, "head"), f.Name, f.Cylinders, f.Heads)
		}
		data = make([]byte, f.RawSize())
		for ti := range d.Tracks {
			t := &d.Tracks[ti]
			if err := f.Holds(t); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			for _, s := range t.Sectors {
				copy(data[f.rawOffset(t.Cyl, t.Head, s.R):], s.Data)
			}
		}
	}
	// Written under a unique temporary name beside path, synced and
	// renamed: an interrupted create leaves no half-made image, and never
	// touches another file (a fixed FILE.tmp could be the user's).
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("%s: folder %s does not exist", path, dir)
	}
	if err := durable.WriteFile(path, func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return syncDir(path)
}

func syncDir(path string) error {
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return nil
	}
	defer d.Close()
	d.Sync()
	return nil
}

// Describe summarises an image for `lbplus floppy info`.
func (im *Image) Describe() []string {
	d := im.disk
	out := []string{fmt.Sprintf("file: %s (%s)", im.path, im.kind)}
	if im.kind == Raw {
		out = append(out, "format "+im.format.String())
	}
	if im.kind == TD0 {
		t := im.td0
		comp := "normal compression"
		if t.Advanced {
			comp = "advanced compression (LZSS + Huffman)"
		}
		dens := "MFM"
		if t.FM {
			dens = "FM"
		}
		out = append(out, fmt.Sprintf("Teledisk format %d.%d, %s, %s %d kbit/s, %s; read-only",
			t.Version/10, t.Version%10, comp, dens, t.Rate, plural(t.Sides, "side")))
		if !t.Created.IsZero() {
			out = append(out, "created: "+t.Created.Format("2006-01-02 15:04:05"))
		}
		for _, l := range strings.Split(strings.TrimRight(t.Comment, "\r\n"), "\r\n") {
			if l != "" {
				out = append(out, "comment: "+l)
			}
		}
	}
	out = append(out, fmt.Sprintf("geometry: %d cylinders x %s", d.Cylinders, plural(d.Heads, "head")))
	// Group tracks with the same sector map.
	type group struct {
		desc  string
		count int
	}
	var groups []group
	for _, t := range d.Tracks {
		desc := "unformatted"
		if len(t.Sectors) > 0 {
			ids := make([]string, len(t.Sectors))
			sizes := map[int]bool{}
			for i, s := range t.Sectors {
				ids[i] = fmt.Sprint(s.R)
				sizes[s.Size()] = true
			}
			var sz []string
			for k := range sizes {
				sz = append(sz, fmt.Sprint(k))
			}
			sort.Strings(sz)
			dens := "MFM"
			if t.FM {
				dens = "FM"
			}
			if t.Rate != 0 && t.Rate != 250 {
				dens += fmt.Sprintf(" %d kbit/s", t.Rate)
			}
			desc = fmt.Sprintf("%s %d sectors of %s bytes, map %s", dens, len(t.Sectors), strings.Join(sz, "/"), strings.Join(ids, ","))
		}
		if n := len(groups); n > 0 && groups[n-1].desc == desc {
			groups[n-1].count++
		} else {
			groups = append(groups, group{desc, 1})
		}
	}
	for _, g := range groups {
		out = append(out, fmt.Sprintf("  %3d tracks: %s", g.count, g.desc))
	}
	bad := d.Bad()
	if len(bad) == 0 {
		out = append(out, "bad sectors: none")
	} else {
		out = append(out, fmt.Sprintf("bad sectors: %d", len(bad)))
		for _, b := range bad {
			out = append(out, "  "+b)
		}
	}
	return out
}

func plural(n int, what string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}
