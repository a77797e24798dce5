package cpmbios_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/devices/floppy"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/roms/cpm"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/roms/cpmutil"
	"github.com/lbplus/lbplus/sched"
	"github.com/lbplus/lbplus/scsi/scsidev"
)

// libdskNames are the Ampro formats as libdsk names them.
var libdskNames = map[string]string{"amp1": "ampro200", "amp2": "ampro400d", "amp3": "ampro400s", "amp4": "ampro800"}

// needTool skips without the host tool, or fails under CI (make debs).
func needTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing (make debs)", name)
		}
		t.Skipf("%s is missing (make debs installs it)", name)
	}
}

// formatBoot is an amp2 system floppy with our programs on A:.
func formatBoot(t *testing.T, progs ...string) string {
	t.Helper()
	boot := systemFloppy(t, "amp2", ourSystem(t))
	im, err := fdimage.Open(boot, fdimage.Options{Format: "amp2"})
	require.NoError(t, err)
	fs, err := cpmbios.FloppyFS(im)
	require.NoError(t, err)
	for _, p := range progs {
		com, err := cpmutil.Program(p)
		require.NoError(t, err)
		require.NoError(t, fs.Write(0, p+".COM", com))
	}
	require.NoError(t, im.Close())
	return boot
}

// oldDisk is an IMD of cyls x heads that no Ampro BIOS reads as its own:
// every track (all: true) or only the last one (an IMD holds at least one
// track; the rest is unformatted) has nine 512-byte sectors 1-9 of 5Ah,
// one after the other.
func oldDisk(t *testing.T, cyls, heads int, all bool) string {
	t.Helper()
	f, err := fdimage.ParseFormat(fmt.Sprintf("%dx%dx9x512", cyls, heads))
	require.NoError(t, err)
	d := fdimage.NewDisk(cyls, heads)
	for c := 0; c < cyls; c++ {
		for h := 0; h < heads; h++ {
			if all || c == cyls-1 && h == heads-1 {
				*d.Track(c, h) = f.NewTrack(c, h, 0x5A)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "old.imd")
	require.NoError(t, fdimage.Create(path, f, d, "IMD 1.18: 01/12/2026 00:00:00"))
	return path
}

// fdcCommands records the WD1772 commands the program sends until the
// returned stop is called, by name.
func fdcCommands(r *rig) (cmds *[]string, stop func()) {
	cmds = &[]string{}
	stop = r.b.ObservePorts(0xC0, 0xC0, func(_ uint64, port uint16, v uint8, out bool) {
		if !out {
			return
		}
		name := map[uint8]string{0x00: "restore", 0x10: "seek", 0x80: "read", 0xA0: "write", 0xC0: "read address",
			0xD0: "force interrupt", 0xF0: "write track"}[v&0xF0]
		if name == "" {
			name = fmt.Sprintf("%02Xh", v)
		}
		*cmds = append(*cmds, name)
	})
	return cmds, stop
}

// FORMAT on the board, in drive B: (unit 1), for each Ampro format, on a
// disk that was never formatted (one stray track) or one of another
// format: the result is exactly the format (sector IDs, sizes, interleave
// 2, E5h everywhere but where a file was copied), CP/M uses it at once,
// and cpmtools and libdsk read it.
func TestFormatOnTheBoard(t *testing.T) {
	for _, tc := range []struct {
		format, drive string
		all           bool // every track of another format; else unformatted
		before        string
	}{
		{"amp1", "48tpi", false, "BDOS ERR ON B: SELECT"},
		{"amp2", "48tpi", true, "NO FILE\r\nA>"},
		{"amp3", "96tpi", false, "BDOS ERR ON B: SELECT"},
		{"amp4", "96tpi", true, "NO FILE\r\nA>"},
	} {
		t.Run(tc.format, func(t *testing.T) {
			f, err := fdimage.ParseFormat(tc.format)
			require.NoError(t, err)
			img := oldDisk(t, f.Cylinders, f.Heads, tc.all)
			r := bootMachine(t, []emu.Floppy{{Drive: 0, Image: formatBoot(t, "FORMAT", "COPY"), Format: "amp2"},
				{Drive: 1, Type: tc.drive, Image: img}}, nil)
			r.ty.Limit = 300 * sched.Second
			require.NoError(t, r.ty.WaitFor("A>"))
			// The BIOS logs B: in before (the old disk reads as amp1, the
			// unformatted one not at all): it knows where B:'s head is.
			r.cmd(t, "DIR B:", tc.before)
			if !strings.HasSuffix(tc.before, "A>") {
				require.NoError(t, r.ty.Type("x"))
				require.NoError(t, r.ty.WaitFor("A>"))
			}
			name := strings.ToUpper(tc.format)
			r.cmd(t, "FORMAT B: "+name, "Format it (Y/N)? ")
			start := r.b.Now()
			require.NoError(t, r.ty.Type("Y"))
			require.NoError(t, r.ty.WaitFor("B: formatted and verified; its directory is empty\r\n"))
			formatted := r.b.Now()
			require.NoError(t, r.ty.WaitFor("A>"))
			t.Logf("FORMAT B: %s: %.1f s of emulated time from Y, %.1f s to A> after the warm boot", name,
				float64(formatted-start)/float64(sched.Second), float64(r.b.Now()-start)/float64(sched.Second))
			out := r.tr.String()
			assert.Contains(t, out, fmt.Sprintf("FORMAT B: as %s: %d cylinders x %d side(s) x %d sectors of %d bytes\r\n",
				name, f.Cylinders, f.Heads, f.Sectors, f.Size))
			assert.Contains(t, out, "Y\r\n"+strings.Repeat(".", f.Cylinders)+"\r\nB: formatted", "a dot a cylinder")

			// The head moved under the BIOS: it learns where from the ID
			// it reads when it logs B: in again, and reads at once (no
			// Restore after failed tries).
			cmds, stop := fdcCommands(r)
			r.cmd(t, "DIR B:", "NO FILE\r\nA>")
			stop()
			assert.NotContains(t, *cmds, "restore", "%v", *cmds)
			assert.Equal(t, "read address", (*cmds)[0], "%v", *cmds)

			// The ID and data marks lie where docs/FLOPPY.md's track
			// layout puts them (floppy.StandardLayout): the gaps are right.
			drv := r.b.FloppyDrive(1)
			for c := 0; c < f.Cylinders; c++ {
				for h := 0; h < f.Heads; h++ {
					tr, pos := drv.Media().Track(c, h, drv.Revolution())
					require.NotNil(t, tr, "c %d h %d", c, h)
					std := floppy.StandardLayout(tr, drv.Revolution())
					require.Equal(t, std.IDAt, pos.IDAt, "c %d h %d: ID marks", c, h)
					require.Equal(t, std.DataAt, pos.DataAt, "c %d h %d: data marks", c, h)
				}
			}

			// (d) a file copied to the new disk reads back.
			r.cmd(t, "COPY B:=COPY.COM", "A>")
			r.cmd(t, "DIR B:", "B: COPY     COM\r\nA>")
			require.NoError(t, r.b.Close())

			// (a) our reader: the exact format.
			im, err := fdimage.Open(img, fdimage.Options{ReadOnly: true})
			require.NoError(t, err)
			defer im.Close()
			d := im.Disk()
			require.Equal(t, f.Cylinders, d.Cylinders)
			require.Equal(t, f.Heads, d.Heads)
			order := fdimage.Order(f.Sectors, 2, f.FirstID)
			data := 0
			for c := 0; c < f.Cylinders; c++ {
				for h := 0; h < f.Heads; h++ {
					tr := d.Track(c, h)
					require.Len(t, tr.Sectors, f.Sectors, "c %d h %d", c, h)
					assert.False(t, tr.FM, "MFM")
					for i, s := range tr.Sectors {
						at := fmt.Sprintf("c %d h %d slot %d", c, h, i)
						require.Equal(t, [4]byte{byte(c), byte(h), order[i], byte(fdimage.SizeCode(f.Size))},
							[4]byte{s.C, s.H, s.R, s.N}, at)
						require.Len(t, s.Data, f.Size, at)
						assert.False(t, s.Deleted || s.BadCRC || s.BadIDCRC, at)
						if !bytes.Equal(s.Data, bytes.Repeat([]byte{0xE5}, f.Size)) {
							data++
						}
					}
				}
			}
			copyCom, err := cpmutil.Program("COPY")
			require.NoError(t, err)
			fs, err := cpmbios.FloppyFS(im)
			require.NoError(t, err)
			back, err := fs.Read(0, "COPY.COM")
			require.NoError(t, err)
			assert.Equal(t, copyCom, back[:len(copyCom)], "COPY.COM reads back")
			files := fs.List()
			require.Len(t, files, 1)
			assert.Equal(t, "COPY.COM", files[0].Name)
			// One directory sector and COPY.COM's; the rest of the disk is
			// E5h.
			assert.Equal(t, 1+(len(copyCom)+f.Size-1)/f.Size, data, "sectors other than E5h")

			// (c) libdsk reads the IMD into the raw image we make of it.
			needTool(t, "dsktrans")
			needTool(t, "dskid")
			needTool(t, "cpmls")
			dir := t.TempDir()
			// dskid sees what it sees in an IMD fdimage makes of the format
			// (on single-sided media its guess of the sectors is libdsk's
			// default geometry, not the disk's, either way).
			made := filepath.Join(dir, "made.imd")
			require.NoError(t, fdimage.Create(made, f, f.NewDisk(0xE5), "IMD 1.18: 01/12/2026 00:00:00"))
			assert.Equal(t, dskid(t, made), dskid(t, img))
			assert.Contains(t, dskid(t, img), fmt.Sprintf("Cylinders: %d Heads: %d", f.Cylinders, f.Heads))
			ours := filepath.Join(dir, "ours.img")
			require.NoError(t, fdimage.Create(ours, f, d, ""))
			theirs := filepath.Join(dir, "theirs.img")
			res, err := exec.Command("dsktrans", "-itype", "imd", "-otype", "raw", "-format", libdskNames[tc.format], img, theirs).CombinedOutput()
			require.NoError(t, err, "%s", res)
			a, err := os.ReadFile(ours)
			require.NoError(t, err)
			b, err := os.ReadFile(theirs)
			require.NoError(t, err)
			assert.True(t, bytes.Equal(a, b), "libdsk reads what we read")
			// (b) cpmtools lists the file on it.
			res, err = exec.Command("cpmls", "-f", tc.format, theirs).CombinedOutput()
			require.NoError(t, err, "%s", res)
			assert.Equal(t, "0:\ncopy.com", strings.TrimSpace(string(res)))
		})
	}
}

// dskid is libdsk's description of an image's geometry, one space between
// words, without the file name and the probe's progress lines.
func dskid(t *testing.T, path string) string {
	t.Helper()
	out, err := exec.Command("dskid", path).CombinedOutput()
	require.NoError(t, err, "%s", out)
	s := string(out)
	i := strings.Index(s, "Driver:")
	require.GreaterOrEqual(t, i, 0, "%s", out)
	return strings.Join(strings.Fields(s[i:]), " ")
}

// A raw image takes FORMAT in its own format: every sector of a disk
// full of another pattern comes out E5h, and the BIOS reads it.
func TestFormatRawImage(t *testing.T) {
	f, err := fdimage.ParseFormat("amp2")
	require.NoError(t, err)
	d := f.NewDisk(0x5A)
	path := filepath.Join(t.TempDir(), "old.img")
	require.NoError(t, fdimage.Create(path, f, d, ""))
	r := bootMachine(t, []emu.Floppy{{Drive: 0, Image: formatBoot(t, "FORMAT"), Format: "amp2"},
		{Drive: 1, Image: path, Format: "amp2"}}, nil)
	r.ty.Limit = 100 * sched.Second
	require.NoError(t, r.ty.WaitFor("A>"))
	r.cmd(t, "FORMAT B: AMP2", "(Y/N)? ")
	require.NoError(t, r.ty.Type("Y"))
	require.NoError(t, r.ty.WaitFor("B: formatted and verified; its directory is empty\r\n\r\nA>"))
	r.cmd(t, "DIR B:", "NO FILE\r\nA>")
	require.NoError(t, r.b.Close())
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Len(t, raw, int(f.RawSize()))
	assert.Equal(t, len(raw), bytes.Count(raw, []byte{0xE5}), "every byte E5h")
}

// What FORMAT refuses, and how it stops: no disk is changed unless the
// user said Y, a write-protected disk is left as it was, ^C stops between
// tracks and says where.
func TestFormatRefusesAndStops(t *testing.T) {
	usage := "FORMAT d: fmt  formats the floppy disk in drive d: (all its data is lost)\r\n"
	t.Run("usage and refusals", func(t *testing.T) {
		old := oldDisk(t, 40, 2, true)
		untouched := unchanged(t, old)
		r := bootMachine(t, []emu.Floppy{{Drive: 0, Image: formatBoot(t, "FORMAT"), Format: "amp2"}, {Drive: 1, Image: old}}, nil)
		require.NoError(t, r.ty.WaitFor("A>"))
		for _, c := range []struct{ line, want string }{
			{"FORMAT", usage},
			{"FORMAT B:", usage},
			{"FORMAT AMP2", usage},
			{"FORMAT B: AMP5", usage},
			{"FORMAT B: AMP22", usage},
			{"FORMAT B:X AMP2", usage},
			{"FORMAT A: AMP2", "A: holds the system (warm boot reloads it from there):\r\nput the disk to format in another drive\r\n\r\nA>"},
			{"FORMAT C: AMP2", "C: is not a drive of this system\r\n\r\nA>"},
			{"FORMAT B: AMP2", "FORMAT B: as AMP2: 40 cylinders x 2 side(s) x 10 sectors of 512 bytes\r\n" +
				"All data on the disk in B: will be lost. Format it (Y/N)? "},
			{"N", "N\r\nNothing changed\r\n\r\nA>"},
			{"FORMAT B: AMP2", "(Y/N)? "},
			{"\x03", "\r\nNothing changed\r\n\r\nA>"},
		} {
			r.cmd(t, c.line, c.want)
		}
		assert.Equal(t, 6, strings.Count(r.tr.String(), usage), "usage, not a prompt, for each bad line")
		require.NoError(t, r.b.Close())
		untouched()
	})
	t.Run("another BIOS", func(t *testing.T) {
		// Older lbplus BIOSes have code, not "DM", at BIOS+3Bh.
		r := bootMachine(t, []emu.Floppy{{Drive: 0, Image: formatBoot(t, "FORMAT"), Format: "amp2"}, {Drive: 1}}, nil)
		require.NoError(t, r.ty.WaitFor("A>"))
		r.b.LoadRAM(cpm.BIOSBase+0x3B, []byte{0xF3, 0x31})
		r.cmd(t, "FORMAT B: AMP2", "FORMAT needs lbplus's BIOS 1.2 or later\r\n\r\nA>")
	})
	t.Run("write protected", func(t *testing.T) {
		wp := floppyWith(t, "wp.imd", nil)
		untouched := unchanged(t, wp)
		r := bootMachine(t, []emu.Floppy{{Drive: 0, Image: formatBoot(t, "FORMAT"), Format: "amp2"}, {Drive: 1, Image: wp, ReadOnly: true}}, nil)
		require.NoError(t, r.ty.WaitFor("A>"))
		r.cmd(t, "FORMAT B: AMP2", "(Y/N)? ")
		require.NoError(t, r.ty.Type("Y"))
		require.NoError(t, r.ty.WaitFor("Y\r\n\r\nThe disk in B: is write protected\r\nNothing was written\r\n\r\nA>"))
		r.cmd(t, "DIR B:", "NO FILE\r\nA>") // the disk reads as before
		require.NoError(t, r.b.Close())
		untouched()
	})
	t.Run("no disk", func(t *testing.T) {
		r := bootMachine(t, []emu.Floppy{{Drive: 0, Image: formatBoot(t, "FORMAT"), Format: "amp2"}, {Drive: 1}}, nil)
		require.NoError(t, r.ty.WaitFor("A>"))
		r.cmd(t, "FORMAT B: AMP2", "(Y/N)? ")
		require.NoError(t, r.ty.Type("y"))
		require.NoError(t, r.ty.WaitFor("y\r\n\r\nNo disk in B:, or the drive does not answer\r\nNothing was written\r\n\r\nA>"))
		r.cmd(t, "DIR", "A: FORMAT   COM\r\nA>")
	})
	t.Run("^C", func(t *testing.T) {
		old := oldDisk(t, 40, 2, true)
		r := bootMachine(t, []emu.Floppy{{Drive: 0, Image: formatBoot(t, "FORMAT"), Format: "amp2"}, {Drive: 1, Image: old}}, nil)
		r.ty.Limit = 100 * sched.Second
		require.NoError(t, r.ty.WaitFor("A>"))
		r.cmd(t, "FORMAT B: AMP2", "(Y/N)? ")
		require.NoError(t, r.ty.Type("Y"))
		require.NoError(t, r.ty.WaitFor("Y\r\n..."))
		require.NoError(t, r.ty.Type("\x03"))
		require.NoError(t, r.ty.WaitFor("\r\n^C: stopped at cylinder "))
		require.NoError(t, r.ty.WaitFor("\r\nThe disk in B: is only partly formatted\r\n\r\nA>"))
		r.cmd(t, "DIR", "A: FORMAT   COM\r\nA>")
		require.NoError(t, r.b.Close())
		var c, h int
		tr := r.tr.String()
		_, err := fmt.Sscanf(tr[strings.Index(tr, "stopped at cylinder "):], "stopped at cylinder %d side %d", &c, &h)
		require.NoError(t, err)
		t.Logf("stopped at cylinder %d side %d", c, h)
		assert.GreaterOrEqual(t, c, 3, "three dots came before the ^C")
		// The tracks up to where it stopped are amp2's, the rest as they were.
		im, err := fdimage.Open(old, fdimage.Options{ReadOnly: true})
		require.NoError(t, err)
		defer im.Close()
		for cy := 0; cy < 40; cy++ {
			for hd := 0; hd < 2; hd++ {
				want := 9
				if cy < c || cy == c && hd <= h {
					want = 10
				}
				assert.Len(t, im.Disk().Track(cy, hd).Sectors, want, "c %d h %d", cy, hd)
			}
		}
	})
	t.Run("hard disk boot", func(t *testing.T) {
		// Booted from the hard disk (A: and B: are its partitions) the
		// floppy units are C: and D:; FORMAT C: formats unit 0.
		hd := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 2})
		com, err := cpmutil.Program("FORMAT")
		require.NoError(t, err)
		putFile(t, hd, "FORMAT.COM", com)
		old := oldDisk(t, 40, 1, false)
		other := oldDisk(t, 40, 2, true)
		untouched := unchanged(t, other)
		r := bootMachine(t, []emu.Floppy{{Drive: 0, Type: "48tpi", Image: old}, {Drive: 1, Image: other}},
			[]scsidev.Spec{{ID: 0, Type: "acb4000", Images: []string{hd}}})
		r.ty.Limit = 100 * sched.Second
		require.NoError(t, r.ty.WaitFor("A>"))
		r.cmd(t, "FORMAT A: AMP1", "A: is a hard disk partition, not a floppy drive\r\n\r\nA>")
		r.cmd(t, "FORMAT E: AMP1", "E: is not a drive of this system\r\n\r\nA>")
		r.cmd(t, "FORMAT C: AMP1", "(Y/N)? ")
		require.NoError(t, r.ty.Type("Y"))
		require.NoError(t, r.ty.WaitFor("C: formatted and verified; its directory is empty\r\n\r\nA>"))
		r.cmd(t, "DIR C:", "NO FILE\r\nA>")
		require.NoError(t, r.b.Close())
		untouched()
		im, err := fdimage.Open(old, fdimage.Options{ReadOnly: true})
		require.NoError(t, err)
		defer im.Close()
		fs, err := cpmbios.FloppyFS(im)
		require.NoError(t, err)
		assert.Empty(t, fs.List())
		for c := 0; c < 40; c++ {
			tr := im.Disk().Track(c, 0)
			require.Len(t, tr.Sectors, 10, "c %d", c)
			assert.Equal(t, byte(1), tr.Sectors[0].R)
		}
	})
}
