package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/lbplus/lbplus/cpmfs"
	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/roms/cpmtape"
	"github.com/lbplus/lbplus/roms/cpmutil"
)

// DefaultDiskName is the default system disk's file in the data directory.
const DefaultDiskName = "cpm-hd0.img"

// dataDir is where lbplus keeps the user's default system disk:
// $XDG_DATA_HOME/lbplus, or ~/.local/share/lbplus without it (the XDG base
// directory convention; the same path on every system, so the README can
// name it).
func dataDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "lbplus"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no place for the default system disk: %w (set XDG_DATA_HOME)", err)
	}
	return filepath.Join(home, ".local", "share", "lbplus"), nil
}

// defaultSystemDisk returns the default system disk, making it on first
// use: an ST-125 image with lbplus's CP/M installed (lbplus disk create
// --system). It is built under a temporary name and renamed when complete,
// so an interrupted first run leaves no half-made disk. Files the user
// writes to it persist from run to run; deleting it starts fresh.
func defaultSystemDisk(w io.Writer) (string, error) {
	dir, err := dataDir()
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, DefaultDiskName)
	if _, err := os.Stat(path); err == nil {
		return path, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("default system disk: %w", err)
	}
	tmp := path + ".new"
	for _, p := range []string{tmp, tmp + ".toml"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
	}
	if err := acb4000.Create(tmp, acb4000.ST125, true, 3); err != nil {
		return "", err
	}
	if _, err := installSystem(tmp, "", "byte"); err != nil {
		return "", err
	}
	if err := putDefaultFiles(tmp); err != nil {
		return "", err
	}
	// The sidecar first: the image's name appearing marks the disk done.
	if err := os.Rename(tmp+".toml", path+".toml"); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", err
	}
	fmt.Fprintf(w, "lbplus: made the default system disk %s (delete it to start fresh)\r\n", path)
	return path, nil
}

// readme is A:README.TXT of the default system disk.
const readme = `This is lbplus's CP/M 2.2 on an emulated Ampro Little Board/PLUS.

Drives A: to E: are the five 4 MB partitions of the hard disk (an
ACB-4000 with a Seagate ST-125 at SCSI ID 0). Built in: DIR, ERA, REN,
SAVE, TYPE, USER, d:. A $$$.SUB file on A: runs when CP/M starts.
Programs on A:: SUBMIT file [args] (makes $$$.SUB), DUMP file (hex),
COPY dst=src (wildcards, drives and users: COPY B3:=A:*.TXT), STAT
[d:][afn] (free space, file sizes; STAT DSK: the drive's parameters),
EDIT file (a line editor: H lists its commands), FORMAT d: AMPn
(formats a floppy as AMP1-AMP4). Floppy drives 0 and 1 are F: and G:;
at lbplus's escape key (Ctrl-\) insert 0 FILE puts a disk in drive 0.
COPY also takes devices: COPY NOTES.TXT=CON: (type, end with ^Z),
COPY LST:=NOTES.TXT (to the printer: lbplus run --printer FILE).
XFER R file and XFER S file receive and send a file by XMODEM over the
serial port: lbplus run --serial pty, then sx or rx on the host.
BACKUP d: copies drive d: to the MCD-403 tape at SCSI ID 1 with the
1990 story's best settings and tells its rate; RESTORE d: copies it back.
Make a tape with lbplus tape create t.tape, then lbplus run --tape t.tape
(this disk and the tape).

On the host, lbplus cpm ls/get/put/rm moves files in and out (with
--part N for drive N+1), and cpmtools reads the partitions as
lbplus-hd0 to lbplus-hd4 (docs/diskdefs). The disk lives in your data
directory; delete it to start again from a fresh one.
`

// defaultPrograms are our CP/M programs (roms/cpmutil) on the default A:.
func defaultPrograms() []string {
	return []string{"SUBMIT", "DUMP", "COPY", "STAT", "FORMAT", "EDIT", "XFER"}
}

// putPrograms puts our CP/M programs on a file system, user 0: the ones of
// the default system disk's A:, which every system disk lbplus makes
// carries (disk create --system, floppy create --system).
func putPrograms(fs *cpmfs.FS) error {
	for _, name := range defaultPrograms() {
		com, err := cpmutil.Program(name)
		if err == nil {
			err = fs.Write(0, name+".COM", com)
		}
		if err != nil {
			return err
		}
	}
	for _, p := range []struct {
		name string
		get  func() ([]byte, error)
	}{{"BACKUP.COM", cpmtape.Backup}, {"RESTORE.COM", cpmtape.Restore}} {
		b, err := p.get()
		if err == nil {
			err = fs.Write(0, p.name, b)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// putDefaultFiles puts the default system disk's files on A:.
func putDefaultFiles(path string) error {
	return onPartition0(path, func(fs *cpmfs.FS) error {
		if err := fs.Write(0, "README.TXT", []byte(strings.ReplaceAll(readme, "\n", "\r\n")+"\x1a")); err != nil {
			return err
		}
		return putPrograms(fs)
	})
}

// onPartition0 opens partition 0 (A:) of a hard-disk image, runs put on
// its file system and closes the image; errors name the image.
func onPartition0(path string, put func(fs *cpmfs.FS) error) error {
	f, err := openHDImage(path)
	if err != nil {
		return err
	}
	fs, err := cpmbios.PartitionFS(f, 0)
	if err == nil {
		err = put(fs)
	}
	if err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}
