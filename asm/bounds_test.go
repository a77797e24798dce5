package asm

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// within runs f and fails the test if it takes more than d.
func within(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { f(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still running after %v", d)
	}
}

// TestEmptyRepeatsAreBounded: nested REPTs with empty bodies emit no lines,
// so a guard on lines alone let them run for minutes; every repetition is
// charged as work.
func TestEmptyRepeatsAreBounded(t *testing.T) {
	for name, src := range map[string]string{
		"nested empty REPT": " rept 65535\n rept 65535\n rept 65535\n endm\n endm\n endm\n",
		"nested empty IRP":  "m macro\n irp x,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16\n rept 65535\n endm\n endm\n endm\n rept 65535\n m\n endm\n",
	} {
		t.Run(name, func(t *testing.T) {
			var err error
			within(t, 20*time.Second, func() { _, err = AssembleString(src, Options{}) })
			require.Error(t, err)
			assert.Contains(t, err.Error(), "lines or repetitions expanded")
		})
	}
	r, err := AssembleString(" rept 1000\n endm\n rept 3\n db 1\n endm\n", Options{})
	require.NoError(t, err, "a modest empty REPT is fine")
	assert.Equal(t, []byte{1, 1, 1}, r.Bytes)
}

// TestOddFilesAreRefused: a named pipe, a device or a huge file as the main
// source, an INCLUDE or an INCBIN is an error at once, not an endless read.
func TestOddFilesAreRefused(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644))
	require.NoError(t, os.Symlink("/dev/zero", filepath.Join(dir, "zero")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "big.bin"), make([]byte, 0x10001), 0o644))
	for _, c := range []struct{ name, main, src, want string }{
		{"main is a pipe", "pipe", "", "not a regular file"},
		{"main is a device", "zero", "", "not a regular file"},
		{"INCLUDE pipe", "m.asm", " include \"pipe\"\n", "not a regular file"},
		{"INCBIN pipe", "m.asm", " incbin \"pipe\"\n", "not a regular file"},
		{"INCBIN device", "m.asm", " incbin \"zero\"\n", "not a regular file"},
		{"INCBIN over 64K", "m.asm", " incbin \"big.bin\"\n", "larger than 65536 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.src != "" {
				require.NoError(t, os.WriteFile(filepath.Join(dir, c.main), []byte(c.src), 0o644))
			}
			var err error
			within(t, 10*time.Second, func() { _, err = Assemble(os.DirFS(dir), c.main, Options{}) })
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}
