package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// needCpmtools skips a test without cpmtools (fails on CI, where make
// debs installs it).
func needCpmtools(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("cpmcp"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("cpmtools missing (make debs)")
		}
		t.Skip("cpmtools not installed (make debs)")
	}
}

// cliDirs makes the work, home and scratch folders runCLI expects.
func cliDirs(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "work")
	for _, d := range []string{dir, filepath.Join(root, "home"), filepath.Join(root, "scratch")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	return dir
}

// The whole way of a raw SCSI disk: `disk create --system --type scsihd
// --size 64M` makes a bootable raw image; `disk info --diskdefs` gives
// cpmtools the partitions, which take a file; `--scsi 0=scsihd:FILE` boots
// our CP/M from it to A>, where the file is; sysgen rewrites its system and
// keeps the file.
func TestSCSIHDSystemDisk(t *testing.T) {
	needCpmtools(t)
	dir := cliDirs(t)
	img := filepath.Join(dir, "hd.img")
	r := runCLI(t, dir, "", 60*time.Second, "disk", "create", "--system", "--type", "scsihd", "--size", "64M", "hd.img")
	require.Zero(t, r.code, r.stderr)
	assert.Contains(t, r.stdout, "hd.img: raw image, 131072 blocks (67108864 bytes), for --scsi ID=scsihd:FILE: 1928 cylinders x 4 heads x 17 sectors (the last cylinder partial: 36 of its 68 blocks)\n")
	assert.Contains(t, r.stdout, "5 partitions of 4 MB")
	st, err := os.Stat(img)
	require.NoError(t, err)
	assert.Equal(t, int64(64<<20), st.Size())
	assert.NoFileExists(t, img+".toml", "a raw image has no sidecar")

	r = runCLI(t, dir, "", 60*time.Second, "disk", "info", "--diskdefs", "hd.img")
	require.Zero(t, r.code, r.stderr)
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "diskdefs"))
	require.NoError(t, err)
	defs := regexp.MustCompile(`(?s)diskdef .*?end\n`)
	assert.Equal(t, defs.FindAllString(string(doc), -1), defs.FindAllString(r.stdout, -1), "the partitions of docs/diskdefs")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "diskdefs"), []byte(r.stdout), 0o644))

	cpm := func(name string, args ...string) string {
		cmd := exec.Command(name, args...)
		cmd.Dir = dir // cpmtools reads ./diskdefs first
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s %v: %s", name, args, out)
		return string(out)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hello from cpmtools\r\n\x1a"), 0o644))
	cpm("cpmcp", "-f", "lbplus-hd1", "-T", "raw", "hd.img", "hello.txt", "0:HELLO.TXT")
	assert.Contains(t, cpm("cpmls", "-f", "lbplus-hd1", "-T", "raw", "hd.img"), "hello.txt")
	assert.Contains(t, cpm("cpmls", "-f", "lbplus-hd0", "-T", "raw", "hd.img"), "edit.com", "A: carries our programs")

	got := runScriptWith(t, []string{"--scsi", "0=scsihd:" + img},
		[]string{"A>", "B: HELLO    TXT\r\nA>", "hello from cpmtools\r\n"}, []string{"DIR B:\r", "TYPE B:HELLO.TXT\r"})
	assert.Contains(t, got, "lbplus CP/M 2.2 BIOS")

	r = runCLI(t, dir, "", 60*time.Second, "sysgen", "hd.img")
	require.Zero(t, r.code, r.stderr)
	assert.Contains(t, r.stdout, "hd.img: CP/M 2.2 system")
	assert.Contains(t, cpm("cpmls", "-f", "lbplus-hd1", "-T", "raw", "hd.img"), "hello.txt", "sysgen keeps the files")
	r = runCLI(t, dir, "", 60*time.Second, "cpm", "ls", "--part", "1", "hd.img")
	require.Zero(t, r.code, r.stderr)
	assert.Contains(t, r.stdout, "HELLO.TXT")
}

// A 1 GiB raw disk is made sparse and attaches; its CP/M partitions are
// the BIOS's first five.
func TestSCSIHDOneGiB(t *testing.T) {
	dir := cliDirs(t)
	r := runCLI(t, dir, "", 60*time.Second, "disk", "create", "--system", "--type", "scsihd", "--size", "1G", "big.img")
	require.Zero(t, r.code, r.stderr)
	assert.Contains(t, r.stdout, "2097152 blocks (1073741824 bytes)")
	assert.Contains(t, r.stdout, "5 partitions of 4 MB")
	got := runScriptWith(t, []string{"--scsi", "0=scsihd:" + filepath.Join(dir, "big.img")},
		[]string{"A>"}, nil)
	assert.Contains(t, got, "lbplus CP/M 2.2 BIOS")
}

// Bad sizes and options are one line, a non-zero exit and nothing made.
func TestSCSIHDBadInput(t *testing.T) {
	dir := cliDirs(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "odd.img"), make([]byte, 1000), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "empty.img"), nil, 0o644))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"disk", "create", "--type", "scsihd", "--size", "1000", "n.img"}, "size 1000 bytes: want a whole, non-zero number of 512-byte blocks"},
		{[]string{"disk", "create", "--type", "scsihd", "--size", "0", "n.img"}, `--size "0": want a size in bytes`},
		{[]string{"disk", "create", "--type", "scsihd", "--size", "64X", "n.img"}, `--size "64X": want a size in bytes`},
		{[]string{"disk", "create", "--type", "scsihd", "--size", "3T", "n.img"}, `--size "3T": want a size in bytes`},
		{[]string{"disk", "create", "--type", "scsihd", "n.img"}, `--size "": want a size in bytes`},
		{[]string{"disk", "create", "--type", "scsihd", "--size", "64M", "--geometry", "st125", "n.img"}, "--geometry is for --type acb4000"},
		{[]string{"disk", "create", "--size", "64M", "n.img"}, "--size is for --type scsihd"},
		{[]string{"disk", "create", "--type", "st506", "n.img"}, `--type "st506": want acb4000 or scsihd`},
		{[]string{"disk", "create", "--system", "--type", "scsihd", "--size", "1M", "n.img"}, "n.img: 1048576 bytes is too small for a CP/M partition (4194304 bytes)"},
		{[]string{"run", "--speed", "max", "--scsi", "0=scsihd:odd.img"}, "odd.img: truncated: 1000 bytes is not a whole number of 512-byte blocks"},
		{[]string{"run", "--speed", "max", "--scsi", "0=scsihd:empty.img"}, "empty.img: empty file, not a disk image"},
		{[]string{"run", "--speed", "max", "--scsi", "0=scsihd,geometry=st125:odd.img"}, "scsihd has no geometry or interleave option"},
		{[]string{"disk", "info", "--diskdefs", "odd.img"}, "not a whole number of 512-byte blocks"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			before := snapshot(t, dir)
			r := runCLI(t, dir, "", 60*time.Second, c.args...)
			require.False(t, r.timedOut, "hangs")
			assert.NotZero(t, r.code, "exit code")
			lines := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n")
			assert.Len(t, lines, 1, "one line on stderr: %q", r.stderr)
			assert.Contains(t, r.stderr, c.want)
			assert.NotContains(t, r.stderr, "panic")
			assert.Equal(t, before, snapshot(t, dir), "no file made, changed or removed")
		})
	}
}

// A disk whose block 0 is no boot sector attaches, and run says in one
// line why the board will not boot from it; a system disk gets no such
// line.
func TestSCSIHDNotBootable(t *testing.T) {
	dir := cliDirs(t)
	for _, c := range []struct {
		args []string
		warn bool
	}{
		{[]string{"disk", "create", "--type", "scsihd", "--size", "8M", "d.img"}, true},
		{[]string{"disk", "create", "--system", "--type", "scsihd", "--size", "8M", "d.img"}, false},
	} {
		require.NoError(t, os.RemoveAll(filepath.Join(dir, "d.img")))
		r := runCLI(t, dir, "", 60*time.Second, c.args...)
		require.Zero(t, r.code, r.stderr)
		r = runCLI(t, dir, "", 120*time.Second, "run", "--speed", "max", "--scsi", "0=scsihd:d.img")
		require.False(t, r.timedOut)
		want := "lbplus: SCSI ID 0 (d.img): block 0 is not a boot block (it starts with 00h, the boot ROM wants 21h or 3Eh)"
		if c.warn {
			assert.Contains(t, r.stderr, want)
			assert.Equal(t, 1, strings.Count(r.stderr, "boot block"), "one line")
		} else {
			assert.NotContains(t, r.stderr, "boot block")
		}
	}
}
