package asm

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"
)

// UnionFS layers file systems: Open returns the file from the first one that
// has it. A ROM package can thus INCLUDE a shared library embedded in another
// Go package.
func UnionFS(fss ...fs.FS) fs.FS { return unionFS(fss) }

type unionFS []fs.FS

func (u unionFS) Open(name string) (fs.File, error) {
	var first error
	for _, f := range u {
		h, err := f.Open(name)
		if err == nil {
			return h, nil
		}
		if first == nil || !errors.Is(err, fs.ErrNotExist) {
			first = err
		}
	}
	if first == nil {
		first = fs.ErrNotExist
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: unwrapPath(first)}
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// readBounded reads a regular file of at most limit bytes. A named pipe
// would block until a writer comes and a device such as /dev/zero never
// ends, so anything but a regular file is refused before it is read, and a
// file that grows past limit while read is cut off with an error.
func readBounded(fsys fs.FS, name string, limit int64) ([]byte, error) {
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		kind := "a special file"
		switch m := st.Mode(); {
		case m.IsDir():
			kind = "a directory"
		case m&fs.ModeNamedPipe != 0:
			kind = "a named pipe"
		case m&fs.ModeDevice != 0:
			kind = "a device"
		}
		return nil, &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%s, not a regular file", kind)}
	}
	if st.Size() > limit {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("larger than %d bytes", limit)}
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("larger than %d bytes", limit)}
	}
	return data, nil
}

// memFS is a flat in-memory file system for AssembleString.
type memFS map[string][]byte

func (m memFS) Open(name string) (fs.File, error) {
	data, ok := m[name]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &memFile{name: name, data: data}, nil
}

type memFile struct {
	name string
	data []byte
	off  int
}

func (f *memFile) Stat() (fs.FileInfo, error) { return memInfo{f.name, int64(len(f.data))}, nil }
func (f *memFile) Close() error               { return nil }
func (f *memFile) Read(p []byte) (int, error) {
	if f.off >= len(f.data) {
		return 0, io.EOF
	}
	n := copy(p, f.data[f.off:])
	f.off += n
	return n, nil
}

type memInfo struct {
	name string
	size int64
}

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) Mode() fs.FileMode  { return 0o444 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }
