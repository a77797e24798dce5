// Package sysdisk makes lbplus's CP/M system disks and changes their
// system: hard-disk images (an ACB-4000 image with its sidecar, or a raw
// image of 512-byte blocks for scsihd, a dd copy, a BlueSCSI file) and
// Ampro-format floppies, with roms/cpmbios's loader, BIOS and a CCP+BDOS,
// and our CP/M programs on A:. The images are opened as a program on the
// board writes them: locked, durable writes. The default system disk
// (MakeDefault) is the one `lbplus run` boots when nothing is attached.
package sysdisk

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/lbplus/lbplus/cpmfs"
	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/devices/image"
	"github.com/lbplus/lbplus/devices/scsihd"
	"github.com/lbplus/lbplus/roms/cpm"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/roms/cpmtape"
	"github.com/lbplus/lbplus/roms/cpmutil"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// OpenHD opens a hard-disk image of either kind. An ACB-4000 image
// opened for writing must be formatted.
func OpenHD(path string, readOnly bool) (*image.File, error) {
	if !image.HasSidecar(path) {
		d, err := scsihd.Open(path, readOnly)
		if err != nil {
			return nil, err
		}
		return d.File(), nil
	}
	var m acb4000.Meta
	f, err := image.Open(path, &m, readOnly)
	if err != nil {
		return nil, err
	}
	if !readOnly && !m.Formatted {
		f.Close()
		return nil, fmt.Errorf("%s: the drive is not formatted; make it with lbplus disk create (without --unformatted)", path)
	}
	return f, nil
}

// IsHD reports whether path is a hard-disk image for sysgen and the cpm
// commands: one with a sidecar, or a raw one whose block 31 is our CP/M
// configuration (a floppy image never holds it). A file that cannot be
// opened is not one: the floppy path reports why.
func IsHD(path string) bool {
	if image.HasSidecar(path) {
		return true
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size()%scsihd.BlockSize != 0 || st.Size() < cpmbios.SysBlocks*cpmbios.BlockSize {
		return false
	}
	f, err := image.OpenRaw(path, scsihd.BlockSize, true)
	if err != nil {
		return false
	}
	defer f.Close()
	_, ok, err := cpmbios.ReadHDConfig(f)
	return ok && err == nil
}

// Ours reports whether the medium (LUN 0 of a SCSI disk on a running
// board, read without a command) is an lbplus CP/M system disk: its block
// 31 is our configuration block.
func Ours(m scsidev.Medium) bool {
	_, ours, err := cpmbios.ReadHDConfig(mediumBlocks{m})
	return err == nil && ours
}

// mediumBlocks reads a SCSI medium's LUN 0 as a cpmbios.BlockDevice
// (reads only: it is for looking).
type mediumBlocks struct{ m scsidev.Medium }

func (x mediumBlocks) Blocks() int64 { return cpmbios.SysBlocks }
func (x mediumBlocks) ReadBlock(n int64, buf []byte) error {
	return x.m.PeekBlock(0, n, buf)
}
func (x mediumBlocks) WriteBlock(int64, []byte) error {
	return errors.New("read only")
}

// InstallHD puts the system (sys, a CCP+BDOS of cpm.SysSize bytes; burst:
// the BIOS moves SCSI data in 256-byte bursts) on a freshly made
// hard-disk image and empties every partition's directory.
func InstallHD(path string, sys []byte, burst bool) (cpmbios.HDConfig, error) {
	f, err := OpenHD(path, false)
	if err != nil {
		return cpmbios.HDConfig{}, err
	}
	cfg := cpmbios.HDConfig{Partitions: cpmbios.Partitions(f.Blocks()), Burst: burst}
	if cfg.Partitions == 0 {
		f.Close()
		return cfg, fmt.Errorf("%s: %d blocks is too small for a CP/M partition (%d blocks)", path, f.Blocks(), cpmbios.PartTracks*cpmbios.TrackBlocks)
	}
	if err := cpmbios.InstallHD(f, sys, cfg, true); err != nil {
		f.Close()
		return cfg, fmt.Errorf("%s: %w", path, err)
	}
	return cfg, f.Close()
}

// SysgenHD rewrites the system of an lbplus CP/M hard disk with sys,
// keeping its files and partitions; with setBurst the BIOS's transfer
// mode becomes burst, else it stays the disk's. It returns the disk's
// configuration as written.
func SysgenHD(path string, sys []byte, setBurst, burst bool) (cpmbios.HDConfig, error) {
	f, err := OpenHD(path, false)
	if err != nil {
		return cpmbios.HDConfig{}, err
	}
	cfg, ok, err := cpmbios.ReadHDConfig(f)
	if err != nil {
		f.Close()
		return cfg, fmt.Errorf("%s: %w", path, err)
	}
	if !ok {
		f.Close()
		return cfg, fmt.Errorf("%s: not an lbplus CP/M disk (no configuration in block %d); make one with lbplus disk create --system", path, cpmbios.ConfigBlock)
	}
	if setBurst {
		cfg.Burst = burst
	}
	if err := cpmbios.InstallHD(f, sys, cfg, false); err != nil {
		f.Close()
		return cfg, fmt.Errorf("%s: %w", path, err)
	}
	return cfg, f.Close()
}

// SysgenFloppy writes the system tracks of a floppy image (format: a raw
// image's format when its size does not tell) with sys.
func SysgenFloppy(path, format string, sys []byte) error {
	im, err := fdimage.Open(path, fdimage.Options{Format: format})
	if err != nil {
		return err
	}
	if err := cpmbios.InstallFloppyImage(im, sys); err != nil {
		im.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return im.Close()
}

// Programs are our CP/M programs (roms/cpmutil) on every system disk's A:,
// beside BACKUP.COM and RESTORE.COM (roms/cpmtape).
func Programs() []string {
	return []string{"SUBMIT", "DUMP", "COPY", "STAT", "FORMAT", "EDIT", "XFER"}
}

// PutPrograms puts our CP/M programs on a file system, user 0: the ones of
// the default system disk's A:, which every system disk lbplus makes
// carries (disk create --system, floppy create --system).
func PutPrograms(fs *cpmfs.FS) error {
	for _, name := range Programs() {
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

// PutHDPrograms puts our CP/M programs on partition 0 (A:) of a hard-disk
// image, as on the default system disk.
func PutHDPrograms(path string) error { return onPartition0(path, PutPrograms) }

// PutFloppyPrograms puts our CP/M programs on a system floppy just made.
func PutFloppyPrograms(path string, f fdimage.Format) error {
	im, err := fdimage.Open(path, fdimage.Options{Format: f.Name})
	if err != nil {
		return err
	}
	fs, err := cpmbios.FloppyFS(im)
	if err == nil {
		err = PutPrograms(fs)
	}
	if err != nil {
		im.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return im.Close()
}

// onPartition0 opens partition 0 (A:) of a hard-disk image, runs put on
// its file system and closes the image; errors name the image.
func onPartition0(path string, put func(fs *cpmfs.FS) error) error {
	f, err := OpenHD(path, false)
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

// MakeDefault makes the default system disk at path: an ST-125 image
// formatted 3:1 with lbplus's CP/M installed (as lbplus disk create
// --system makes it), README.TXT and our programs on A:. It is built under
// a temporary name (path.new, whose leftovers it removes first) and
// renamed when complete, the sidecar first, so an interrupted first run
// leaves no half-made disk: the image's name appearing marks it done.
func MakeDefault(path string) error {
	tmp := path + ".new"
	for _, p := range []string{tmp, tmp + ".toml"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	if err := acb4000.Create(tmp, acb4000.ST125, true, 3); err != nil {
		return err
	}
	sys, err := cpm.System()
	if err != nil {
		return err
	}
	if _, err := InstallHD(tmp, sys, false); err != nil {
		return err
	}
	if err := putDefaultFiles(tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp+".toml", path+".toml"); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// putDefaultFiles puts the default system disk's files on A:.
func putDefaultFiles(path string) error {
	return onPartition0(path, func(fs *cpmfs.FS) error {
		if err := fs.Write(0, "README.TXT", []byte(strings.ReplaceAll(Readme, "\n", "\r\n")+"\x1a")); err != nil {
			return err
		}
		return PutPrograms(fs)
	})
}

// Readme is A:README.TXT of the default system disk.
const Readme = `This is lbplus's CP/M 2.2 on an emulated Ampro Little Board/PLUS.

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
