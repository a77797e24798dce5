package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/roms/cpm"
)

// otherCCP is a CCP+BDOS image of someone else's for the documented origin
// (CCP D400h, 5632 bytes): it announces itself through the BIOS and waits.
const otherCCP = `
        INCLUDE "layout.inc"
        org CCPBASE
        ld sp,CCPBASE
        ld hl,msg
loop:   ld a,(hl)
        or a
        jr z,$
        push hl
        ld c,a
        call BIOS_CONOUT
        pop hl
        inc hl
        jr loop
msg:    db "OTHER CCP",13,10,0
        ds CCPBASE+SYSSIZE-$,0
`

func otherCCPFile(t *testing.T) string {
	t.Helper()
	r, err := asm.Assemble(asm.UnionFS(fstest.MapFS{"o.asm": {Data: []byte(otherCCP)}}, cpm.FS), "o.asm", asm.Options{})
	require.NoError(t, err)
	require.Len(t, r.Bytes, cpm.SysSize)
	path := filepath.Join(t.TempDir(), "other.bin")
	require.NoError(t, os.WriteFile(path, r.Bytes, 0o644))
	return path
}

// A user's CCP+BDOS installed with --ccp-bdos boots on our BIOS, from a
// hard disk and from a floppy; sysgen without it puts ours back and keeps
// the files.
func TestSysgenOtherCCPBDOS(t *testing.T) {
	other := otherCCPFile(t)
	dir := t.TempDir()
	hd := filepath.Join(dir, "hd.img")
	var out bytes.Buffer
	require.NoError(t, diskCreate(&out, hd, "st125", 3, false))
	require.NoError(t, diskCreateSystem(&out, hd, false, systemFlags{on: true, ccpBDOS: other, transfer: "burst"}))
	assert.Contains(t, out.String(), "CCP+BDOS from "+other+", lbplus BIOS, SCSI 256-byte bursts), 5 partitions")

	got := runScriptWith(t, []string{"--hd0", hd}, []string{"OTHER CCP\r\n"}, nil)
	assert.Contains(t, got, "lbplus CP/M 2.2 BIOS")

	out.Reset()
	require.NoError(t, sysgen(&out, hd, "", ""))
	assert.Contains(t, out.String(), "lbplus CCP+BDOS, lbplus BIOS, SCSI 256-byte bursts", "the transfer mode is kept")
	runScriptWith(t, []string{"--hd0", hd},
		[]string{"A>", "A>", "KEEP     COM\r\nA>"}, []string{"SAVE 1 KEEP.COM\r", "DIR\r"})
	require.NoError(t, sysgen(&out, hd, other, ""))
	runScriptWith(t, []string{"--hd0", hd}, []string{"OTHER CCP\r\n"}, nil)
	require.NoError(t, sysgen(&out, hd, "", "byte"))
	got = runScriptWith(t, []string{"--hd0", hd}, []string{"A>", "KEEP     COM\r\nA>"}, []string{"DIR\r"})
	assert.Contains(t, got, "KEEP", "sysgen keeps the files")

	fd := filepath.Join(dir, "boot.imd")
	require.NoError(t, floppyCreate(&out, fd, "amp4", 0, systemFlags{on: true, ccpBDOS: other}, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)))
	runScriptWith(t, []string{"--fd0", fd}, []string{"OTHER CCP\r\n"}, nil)
	require.NoError(t, sysgenFloppy(&out, fd, "", ""))
	runScriptWith(t, []string{"--fd0", fd}, []string{"A>", "EDIT     COM"}, []string{"DIR\r"})
	require.NoError(t, sysgenFloppy(&out, fd, other, ""))
	assert.Contains(t, out.String(), "CP/M 2.2 system tracks written (CCP+BDOS from "+other)
	runScriptWith(t, []string{"--fd0", fd}, []string{"OTHER CCP\r\n"}, nil)
}

func TestSysgenBadInput(t *testing.T) {
	dir := t.TempDir()
	short := filepath.Join(dir, "short.bin")
	require.NoError(t, os.WriteFile(short, make([]byte, 4096), 0o644))
	plain := filepath.Join(dir, "plain.img")
	require.NoError(t, diskCreate(&bytes.Buffer{}, plain, "st125", 3, false))
	before, err := os.ReadFile(plain)
	require.NoError(t, err)
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"short CCP+BDOS", sysgen(&bytes.Buffer{}, plain, short, ""), "short.bin: 4096 bytes; want 5632"},
		{"missing CCP+BDOS", sysgen(&bytes.Buffer{}, plain, filepath.Join(dir, "none.bin"), ""), "none.bin"},
		{"not a system disk", sysgen(&bytes.Buffer{}, plain, "", ""), "plain.img: not an lbplus CP/M disk"},
		{"bad transfer", sysgen(&bytes.Buffer{}, plain, "", "dma"), `--transfer "dma": want byte or burst`},
		{"unformatted", diskCreateSystem(&bytes.Buffer{}, plain, true, systemFlags{on: true}), "--system needs a formatted drive"},
		{"not a floppy", sysgenFloppy(&bytes.Buffer{}, short, "", ""), "short.bin"},
	}
	for _, tc := range tests {
		assert.ErrorContains(t, tc.err, tc.want, tc.name)
	}
	after, err := os.ReadFile(plain)
	require.NoError(t, err)
	assert.Equal(t, before, after, "refused: the image is untouched")
}
