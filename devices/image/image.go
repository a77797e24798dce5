// Package image stores the media of the emulated SCSI devices: a raw file of
// fixed-size blocks beside a TOML sidecar (FILE.toml) that says what the
// blocks are (geometry, format state, version), or, for images as users
// have them (a dd copy of a drive, a BlueSCSI file), the blocks alone
// (OpenRaw).
//
// It gives the device models three guarantees:
//
//   - An image is opened by one emulator at a time: Open takes an exclusive
//     flock(2) on the image file (shared for read-only opens). The kernel
//     drops the lock when the process dies, so a killed emulator never leaves
//     a stale lock behind.
//   - Acknowledged writes survive a kill: WriteBlock writes through to the
//     file (pwrite, no user-space cache) and Sync fsyncs it; a device calls
//     Sync before it reports GOOD status.
//   - Bad input never corrupts an image: size and sidecar are checked before
//     anything is written; Create builds the image under a temporary name and
//     renames it into place; sidecar updates are written to a temporary file,
//     fsynced and renamed, so a crash leaves the old or the new sidecar, never
//     half of one.
//
// Known inaccuracies / assumptions:
//   - Locking is advisory and unix-only (flock). On other systems Open does
//     not lock (lock_other.go).
//   - A block write torn by a power failure (not a process kill) may leave a
//     partially written block; the real drive could tear a sector too.
package image

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/BurntSushi/toml"
)

// Meta is the device-specific sidecar content. It is encoded to and decoded
// from TOML with BurntSushi/toml, so its fields carry `toml:"..."` tags.
type Meta interface {
	// Layout gives the block size in bytes and the number of blocks the raw
	// file must hold.
	Layout() (blockSize int, blocks int64)
	// Validate checks the decoded sidecar (version, kind, value ranges).
	Validate() error
}

// SidecarPath is where the sidecar of the image at path lives.
func SidecarPath(path string) string { return path + ".toml" }

// File is an open, locked block image.
type File struct {
	path      string
	f         *os.File
	blockSize int
	blocks    int64
	readOnly  bool
	raw       bool // no sidecar (OpenRaw)
	scratch   bool // a throwaway image (Scratch)

	// seen is the file as this process last left it (watch); stale, once
	// set, is the error every later access returns.
	seen  syscall.Stat_t
	stale error
}

// ErrChangedOnHost is in the error of every access to an image that
// another program changed, truncated or replaced while it was open here.
var ErrChangedOnHost = errors.New("changed by another program while lbplus had it open")

// watch notes the file as it is now, after an access of ours.
func (f *File) watch() error {
	if err := syscall.Fstat(int(f.f.Fd()), &f.seen); err != nil {
		return fmt.Errorf("%s: %w", f.path, err)
	}
	return nil
}

// unchanged checks, before an access, that nobody else changed the file
// since we last touched it: its size, modification and change times (a
// write by another program, a truncation) and that the name still leads to
// it (a program that writes a new file and renames it over ours). cpmtools
// and dd, for instance, take no lock (docs/CPM.md "Images shared with the
// host"). Once changed, the image stays stopped: it is never written over
// what the other program wrote.
func (f *File) unchanged() error {
	if f.stale != nil || f.scratch {
		return f.stale
	}
	var now, named syscall.Stat_t
	err := syscall.Fstat(int(f.f.Fd()), &now)
	if err == nil {
		err = syscall.Stat(f.path, &named)
	}
	what := ""
	switch {
	case err != nil && errors.Is(err, syscall.ENOENT):
		what = "removed"
	case err != nil:
		return fmt.Errorf("%s: %w", f.path, err)
	case named.Dev != now.Dev || named.Ino != now.Ino:
		what = "replaced by another file"
	case now.Size != f.seen.Size:
		what = fmt.Sprintf("now %d bytes, was %d", now.Size, f.seen.Size)
	case now.Mtim != f.seen.Mtim || now.Ctim != f.seen.Ctim:
		what = "written"
	default:
		return nil
	}
	f.stale = fmt.Errorf("%s: %s: %w (nothing more is written to it)", f.path, what, ErrChangedOnHost)
	return f.stale
}

// Create makes a new image at path holding blocks × blockSize bytes of fill,
// with meta as its sidecar. It refuses to replace an existing image or
// sidecar. The raw file is built under a unique temporary name beside path,
// fsynced and renamed, so an interrupted Create leaves no half-made image
// and a temporary left by a killed Create does not block the next one.
func Create(path string, meta Meta, fill byte) error {
	if err := meta.Validate(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	bs, n := meta.Layout()
	if bs <= 0 || n <= 0 {
		return fmt.Errorf("%s: bad layout %d blocks of %d bytes", path, n, bs)
	}
	if err := refuseExisting(path); err != nil {
		return err
	}
	f, err := createTemp(path)
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
			temps.Delete(tmp)
		}
	}()
	if err := fillFile(f, bs, n, fill, true); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	// Sidecar first: an image file without a sidecar is refused by Open,
	// a sidecar without its image is refused too, so either order is safe;
	// this one leaves no unusable raw file if the sidecar cannot be written.
	if err := writeSidecar(path, meta); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(SidecarPath(path))
		return fmt.Errorf("%s: %w", path, err)
	}
	temps.Delete(tmp)
	ok = true
	return syncDir(path)
}

// refuseExisting: a new image never replaces a file, its own or its
// sidecar.
func refuseExisting(path string) error {
	for _, p := range []string{path, SidecarPath(path)} {
		if _, err := os.Lstat(p); err == nil {
			return fmt.Errorf("%s: already exists (remove it first to make a new image)", p)
		} else if !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// CreateRaw makes a new raw image at path (no sidecar) of size bytes of
// zeros, sparse where the file system allows: the blank drive of a model
// that keeps nothing beside its blocks. size must be a whole, non-zero
// number of blockSize blocks. Like Create it refuses to replace a file
// (or a sidecar: a raw image has none), builds under a temporary name,
// fsyncs and renames.
func CreateRaw(path string, blockSize int, size int64) error {
	if blockSize <= 0 || size <= 0 || size%int64(blockSize) != 0 {
		return fmt.Errorf("%s: size %d bytes is not a whole, non-zero number of %d-byte blocks", path, size, blockSize)
	}
	if err := refuseExisting(path); err != nil {
		return err
	}
	f, err := createTemp(path)
	if err != nil {
		return err
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		temps.Delete(tmp)
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Truncate(size); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		temps.Delete(tmp)
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		temps.Delete(tmp)
		return fmt.Errorf("%s: %w", path, err)
	}
	temps.Delete(tmp)
	return syncDir(path)
}

// fillFile writes fill to every block. A fresh (empty) file of zeros is made
// sparse by truncation instead.
func fillFile(f *os.File, bs int, n int64, fill byte, fresh bool) error {
	if fill == 0 && fresh {
		return f.Truncate(int64(bs) * n)
	}
	chunk := bytes.Repeat([]byte{fill}, bs*64)
	total := int64(bs) * n
	for off := int64(0); off < total; {
		w := min(int64(len(chunk)), total-off)
		if _, err := f.WriteAt(chunk[:w], off); err != nil {
			return err
		}
		off += w
	}
	return nil
}

// Kinded is implemented by a Meta whose sidecar names its image type in a
// "kind" key; ReadSidecar then says "a tape image, not a disk image"
// instead of listing the keys the other type does not know.
type Kinded interface {
	ImageKind() string
}

// MaxSidecarBytes bounds a sidecar read: a real one is a few hundred bytes
// (a tape's written-block list at most some tens of KB), so anything longer
// is not a sidecar and must not be read forever.
const MaxSidecarBytes = 1 << 20

// checkRegular refuses anything but an existing regular file before it is
// opened: opening a named pipe blocks until a writer appears and a device
// such as /dev/zero never ends, so neither may be read as an image.
func checkRegular(path, what string) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%s: no such %s", path, what)
	case err != nil:
		return fmt.Errorf("%s: %w", path, err)
	case st.IsDir():
		return fmt.Errorf("%s: is a directory, not %s", path, article(what))
	case !st.Mode().IsRegular():
		return fmt.Errorf("%s: %s, not a regular file: cannot be %s", path, FileKind(st.Mode()), article(what))
	}
	return nil
}

// FileKind names what a file that is not a regular one is, for messages.
func FileKind(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeCharDevice != 0, m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	}
	return "a special file"
}

func article(what string) string {
	if strings.IndexAny(what[:1], "aeiou") == 0 {
		return "an " + what
	}
	return "a " + what
}

// Open opens the image at path, decodes its sidecar into meta and checks that
// the raw file has exactly the size the sidecar describes. A read-write open
// takes an exclusive lock; a read-only open a shared one. Any mismatch is an
// error naming the file, and nothing is written.
func Open(path string, meta Meta, readOnly bool) (*File, error) {
	f, err := openLocked(path, readOnly)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*File, error) {
		f.Close() // drops the lock
		return nil, err
	}
	if err := ReadSidecar(path, meta); err != nil {
		return fail(err)
	}
	bs, n := meta.Layout()
	st, err := f.Stat()
	if err != nil {
		return fail(fmt.Errorf("%s: %w", path, err))
	}
	if want := int64(bs) * n; st.Size() != want {
		return fail(fmt.Errorf("%s: size %d bytes, but sidecar %s describes %d blocks of %d bytes = %d bytes",
			path, st.Size(), SidecarPath(path), n, bs, want))
	}
	im := &File{path: path, f: f, blockSize: bs, blocks: n, readOnly: readOnly}
	if err := im.watch(); err != nil {
		return fail(err)
	}
	return im, nil
}

// OpenRaw opens an image that has no sidecar (a dd copy of a drive, a
// BlueSCSI or SCSI2SD file): its size must be a whole, non-zero number of
// blockSize blocks, which are all it holds. It is locked as Open locks.
// SaveMeta on it is an error: nothing but the blocks is ever written.
func OpenRaw(path string, blockSize int, readOnly bool) (*File, error) {
	f, err := openLocked(path, readOnly)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	switch size := st.Size(); {
	case size == 0:
		f.Close()
		return nil, fmt.Errorf("%s: empty file, not a disk image", path)
	case size%int64(blockSize) != 0:
		f.Close()
		return nil, fmt.Errorf("%s: truncated: %d bytes is not a whole number of %d-byte blocks", path, size, blockSize)
	}
	im := &File{path: path, f: f, blockSize: blockSize, blocks: st.Size() / int64(blockSize), readOnly: readOnly, raw: true}
	if err := im.watch(); err != nil {
		f.Close()
		return nil, err
	}
	return im, nil
}

// openLocked opens a regular file and takes its lock.
func openLocked(path string, readOnly bool) (*os.File, error) {
	if err := checkRegular(path, "image file"); err != nil {
		return nil, err
	}
	flag := os.O_RDWR
	if readOnly {
		flag = os.O_RDONLY
	}
	f, err := os.OpenFile(path, flag, 0)
	if err != nil {
		return nil, openError(path, err, readOnly)
	}
	if err := Lock(f, !readOnly); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = errors.New("not a regular file")
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// HasSidecar reports whether the image at path has a sidecar file.
func HasSidecar(path string) bool {
	_, err := os.Stat(SidecarPath(path))
	return err == nil
}

// ReadSidecar decodes the sidecar of the image at path into meta and
// validates it. Keys the sidecar has but meta does not know are an error (a
// newer or foreign sidecar is not silently half-read).
func ReadSidecar(path string, meta Meta) error {
	sc := SidecarPath(path)
	if _, err := os.Stat(sc); errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%s: sidecar %s is missing (make images with `lbplus disk create` or `lbplus tape create`)", path, sc)
	}
	if err := checkRegular(sc, "sidecar"); err != nil {
		return err
	}
	text, err := readBounded(sc, MaxSidecarBytes)
	if err != nil {
		return err
	}
	if k, ok := meta.(Kinded); ok {
		var head struct {
			Kind string `toml:"kind"`
		}
		// Undecoded keys are expected here; syntax errors are reported below.
		if _, err := toml.Decode(text, &head); err == nil && head.Kind != "" && head.Kind != k.ImageKind() {
			return fmt.Errorf("%s: sidecar %s says this is %s, not %s", path, sc, article(head.Kind+" image"), article(k.ImageKind()+" image"))
		}
	}
	md, err := toml.Decode(text, meta)
	if err != nil {
		return fmt.Errorf("%s: %w", sc, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return fmt.Errorf("%s: unknown keys %s", sc, strings.Join(keys, ", "))
	}
	if err := meta.Validate(); err != nil {
		return fmt.Errorf("%s: %w", sc, err)
	}
	return nil
}

// bare drops the operation and path from an *os.PathError: the messages
// here name the file themselves.
// cannotWrite reports whether err means the file may be read but not
// written: no permission for this user, or a read-only file system.
func cannotWrite(err error) bool {
	return errors.Is(err, os.ErrPermission) || errors.Is(err, syscall.EROFS)
}

// openError says why an image could not be opened; one that may not be
// written gets the read-only attachment as the way out, instead of a bare
// "permission denied".
func openError(path string, err error, readOnly bool) error {
	if !readOnly && cannotWrite(err) {
		why := "not writable by this user"
		if errors.Is(err, syscall.EROFS) {
			why = "on a read-only file system"
		}
		return fmt.Errorf("%s: %s (%v); attach it read-only as %s,ro", path, why, bare(err), path)
	}
	return fmt.Errorf("%s: %w", path, bare(err))
}

func bare(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// readBounded reads a small text file whole, refusing one longer than limit.
func readBounded(path string, limit int64) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, bare(err))
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(b)) > limit {
		return "", fmt.Errorf("%s: longer than %d bytes, not a sidecar", path, limit)
	}
	return string(b), nil
}

// writeSidecar replaces the sidecar atomically (temp file, fsync, rename).
func writeSidecar(path string, meta Meta) error {
	sc := SidecarPath(path)
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(meta); err != nil {
		return fmt.Errorf("%s: %w", sc, err)
	}
	f, err := createTemp(sc)
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(buf.Bytes())
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp, sc)
	}
	defer temps.Delete(tmp)
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("%s: %w", sc, werr)
	}
	return syncDir(sc)
}

// createTemp makes a new, uniquely named file beside path (".NAME.*.tmp"),
// so a temporary left by a killed process never blocks the next attempt.
// It is listed in Temporaries until it is renamed or removed.
func createTemp(path string) (*os.File, error) {
	tempsMu.Lock() // made and listed at once, or refused after RemoveTemporaries
	defer tempsMu.Unlock()
	if tempsClosed {
		return nil, fmt.Errorf("%s: interrupted", path)
	}
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%s: folder %s does not exist", path, dir)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		if cannotWrite(err) {
			return nil, fmt.Errorf("%s: cannot make files in folder %s (%v)", path, dir, bare(err))
		}
		return nil, fmt.Errorf("%s: %w", path, bare(err))
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	temps.Store(f.Name(), true)
	return f, nil
}

// temps holds the temporaries being built, for RemoveTemporaries.
var (
	temps       sync.Map
	tempsMu     sync.Mutex
	tempsClosed bool // RemoveTemporaries ran
)

// RemoveTemporaries deletes every temporary image or sidecar still being
// built: a front end calls it when interrupted (Ctrl-C during disk create),
// so no half-made 21 MB file is left behind. A kill -9 cannot be caught;
// what it leaves has a unique name and blocks nothing. No temporary can be
// made after it: the caller is about to exit.
func RemoveTemporaries() {
	tempsMu.Lock()
	defer tempsMu.Unlock()
	tempsClosed = true
	temps.Range(func(k, _ any) bool {
		os.Remove(k.(string))
		temps.Delete(k)
		return true
	})
}

func syncDir(path string) error {
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return nil // best effort: some systems cannot open directories
	}
	defer d.Close()
	d.Sync()
	return nil
}

// Path is the image file's name.
func (f *File) Path() string { return f.path }

// BlockSize is the size of one block in bytes.
func (f *File) BlockSize() int { return f.blockSize }

// Raw reports whether the image has no sidecar (OpenRaw).
func (f *File) Raw() bool { return f.raw }

// ReadOnly reports whether the image was opened read-only.
func (f *File) ReadOnly() bool { return f.readOnly }

// Blocks is the number of blocks.
func (f *File) Blocks() int64 { return f.blocks }

func (f *File) check(n int64, buf []byte) error {
	if n < 0 || n >= f.blocks {
		return fmt.Errorf("%s: block %d out of range 0..%d", f.path, n, f.blocks-1)
	}
	if len(buf) != f.blockSize {
		return fmt.Errorf("%s: buffer of %d bytes for a %d-byte block", f.path, len(buf), f.blockSize)
	}
	return nil
}

// ReadBlock reads block n into buf (len(buf) == BlockSize).
func (f *File) ReadBlock(n int64, buf []byte) error {
	if err := f.check(n, buf); err != nil {
		return err
	}
	if err := f.unchanged(); err != nil {
		return err
	}
	if _, err := f.f.ReadAt(buf, n*int64(f.blockSize)); err != nil && err != io.EOF {
		return fmt.Errorf("%s: block %d: %w", f.path, n, err)
	}
	return nil
}

// WriteBlock writes buf to block n straight to the file (no user-space
// buffering), so it survives a kill of the emulator once it returns. Call
// Sync to make it survive a power failure too.
func (f *File) WriteBlock(n int64, buf []byte) error {
	if f.readOnly {
		return fmt.Errorf("%s: opened read-only", f.path)
	}
	if err := f.check(n, buf); err != nil {
		return err
	}
	if err := f.unchanged(); err != nil {
		return err
	}
	if _, err := f.f.WriteAt(buf, n*int64(f.blockSize)); err != nil {
		return fmt.Errorf("%s: block %d: %w", f.path, n, err)
	}
	return f.watch()
}

// Fill writes v to every block (a FORMAT) and syncs.
func (f *File) Fill(v byte) error {
	if f.readOnly {
		return fmt.Errorf("%s: opened read-only", f.path)
	}
	if err := f.unchanged(); err != nil {
		return err
	}
	if err := fillFile(f.f, f.blockSize, f.blocks, v, false); err != nil {
		return fmt.Errorf("%s: %w", f.path, err)
	}
	if err := f.watch(); err != nil {
		return err
	}
	return f.Sync()
}

// Sync flushes written blocks to stable storage (fsync).
func (f *File) Sync() error {
	if f.readOnly || f.scratch {
		return nil
	}
	if err := f.f.Sync(); err != nil {
		return fmt.Errorf("%s: %w", f.path, err)
	}
	return nil
}

// Scratch makes the image a throwaway one that only this process uses,
// as a bench's run makes and deletes: Sync does nothing, and accesses no
// longer check that nobody else changed or replaced the file (two system
// calls each). A crash may lose what was written.
func (f *File) Scratch() { f.scratch = true }

// SaveMeta replaces the sidecar atomically (FORMAT changes interleave and
// format state).
func (f *File) SaveMeta(meta Meta) error {
	if f.raw {
		return fmt.Errorf("%s: a raw image has no sidecar to save", f.path)
	}
	if f.readOnly {
		return fmt.Errorf("%s: opened read-only", f.path)
	}
	if err := meta.Validate(); err != nil {
		return fmt.Errorf("%s: %w", f.path, err)
	}
	if bs, n := meta.Layout(); bs != f.blockSize || n != f.blocks {
		return fmt.Errorf("%s: sidecar layout %dx%d differs from the open image %dx%d", f.path, n, bs, f.blocks, f.blockSize)
	}
	return writeSidecar(f.path, meta)
}

// Close syncs, unlocks and closes the image.
func (f *File) Close() error {
	if f.f == nil {
		return nil
	}
	err := f.Sync()
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	f.f = nil
	return err
}
