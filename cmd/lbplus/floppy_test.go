package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/emu/console"
	"github.com/lbplus/lbplus/roms/bootdemo"
)

// needTool skips outside CI when a Debian cross-check tool is missing (make
// debs installs it) and fails under CI.
func needTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing (make debs)", name)
		}
		t.Skipf("%s is missing (make debs installs it)", name)
	}
}

var stamp = time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC)

// libdskFormats names the Ampro formats as libdsk knows them.
var libdskFormats = map[string]string{"amp1": "ampro200", "amp2": "ampro400d", "amp3": "ampro400s", "amp4": "ampro800"}

// cpmls lists the empty directory of every `floppy create` result: the raw
// image, and the IMD, which libdsk's dsktrans turns into that same raw
// image byte for byte.
func TestFloppyCreateCpmls(t *testing.T) {
	needTool(t, "cpmls")
	needTool(t, "dsktrans")
	dir := t.TempDir()
	for _, f := range fdimage.Formats {
		p := filepath.Join(dir, f.Name+".img")
		var out bytes.Buffer
		require.NoError(t, floppyCreate(&out, p, f.Name, 0, systemFlags{}, stamp))
		assert.Contains(t, out.String(), f.Name)
		st, err := os.Stat(p)
		require.NoError(t, err)
		assert.Equal(t, f.RawSize(), st.Size())
		imd, conv := filepath.Join(dir, f.Name+".imd"), filepath.Join(dir, f.Name+".raw")
		require.NoError(t, floppyCreate(&bytes.Buffer{}, imd, f.Name, 0, systemFlags{}, stamp))
		res, err := exec.Command("dsktrans", "-itype", "imd", "-otype", "raw", "-format", libdskFormats[f.Name], imd, conv).CombinedOutput()
		require.NoError(t, err, "%s: %s", f.Name, res)
		rawData, err := os.ReadFile(p)
		require.NoError(t, err)
		convData, err := os.ReadFile(conv)
		require.NoError(t, err)
		assert.True(t, bytes.Equal(rawData, convData), "%s: the IMD holds other data than the raw image", f.Name)
		res, err = exec.Command("cpmls", "-f", f.Name, conv).CombinedOutput()
		require.NoError(t, err, "%s (from the IMD): %s", f.Name, res)
		assert.Empty(t, strings.TrimSpace(string(res)), f.Name)
		// cpmls of an empty directory prints nothing and succeeds; with a
		// file on it (cpmcp) it lists the file.
		res, err = exec.Command("cpmls", "-f", f.Name, p).CombinedOutput()
		require.NoError(t, err, "%s: %s", f.Name, res)
		assert.Empty(t, strings.TrimSpace(string(res)), f.Name)
		hello := filepath.Join(dir, "hello.txt")
		require.NoError(t, os.WriteFile(hello, []byte("hi\r\n"), 0o644))
		res, err = exec.Command("cpmcp", "-f", f.Name, p, hello, "0:hello.txt").CombinedOutput()
		require.NoError(t, err, "%s: %s", f.Name, res)
		res, err = exec.Command("cpmls", "-f", f.Name, p).CombinedOutput()
		require.NoError(t, err)
		assert.Contains(t, string(res), "hello.txt", f.Name)
		// Our reader sees the directory entry in the first sector after the
		// boot tracks (cylinder 2 on SS, cylinder 1 on DS media).
		im, err := fdimage.Open(p, fdimage.Options{Format: f.Name, ReadOnly: true})
		require.NoError(t, err)
		c, h := 2, 0
		if f.Heads == 2 {
			c = 1
		}
		tr := im.Disk().Track(c, h)
		s := tr.Sectors[tr.Find(byte(f.FirstID))]
		assert.Equal(t, "HELLO   TXT", string(s.Data[1:12]), f.Name)
		im.Close()
	}
}

// An IMD written by lbplus reads in libdsk with the same sectors, and an IMD
// libdsk writes from a raw amp2 image reads in lbplus with the same data.
func TestIMDAgainstLibdsk(t *testing.T) {
	needTool(t, "dsktrans")
	needTool(t, "dskid")
	dir := t.TempDir()
	f, _ := fdimage.ParseFormat("amp2")
	raw := make([]byte, f.RawSize())
	for i := range raw {
		raw[i] = byte(i*7 + i/512)
	}
	// ours -> libdsk
	d := f.NewDisk(0)
	for ti := range d.Tracks {
		t := &d.Tracks[ti]
		for si := range t.Sectors {
			s := &t.Sectors[si]
			off := ((t.Cyl*2+t.Head)*10 + int(s.R) - 17) * 512
			copy(s.Data, raw[off:off+512])
		}
	}
	ours := filepath.Join(dir, "ours.imd")
	require.NoError(t, fdimage.Create(ours, f, d, "IMD 1.18: 01/12/2026 03:00:00"))
	id, err := exec.Command("dskid", ours).CombinedOutput()
	require.NoError(t, err, "%s", id)
	for _, want := range []string{"Cylinders:     40", "Heads:          2", "Sectors:       10", "First sector:  17", "Sector size:  512", "MFM"} {
		assert.Contains(t, string(id), want)
	}
	back := filepath.Join(dir, "back.raw")
	res, err := exec.Command("dsktrans", "-itype", "imd", "-otype", "raw", "-format", "ampro400d", ours, back).CombinedOutput()
	require.NoError(t, err, "%s", res)
	got, err := os.ReadFile(back)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(raw, got), "dsktrans read our IMD with other data")

	// libdsk -> ours
	in := filepath.Join(dir, "in.img")
	require.NoError(t, os.WriteFile(in, raw, 0o644))
	theirs := filepath.Join(dir, "theirs.imd")
	res, err = exec.Command("dsktrans", "-itype", "raw", "-otype", "imd", "-format", "ampro400d", in, theirs).CombinedOutput()
	require.NoError(t, err, "%s", res)
	im, err := fdimage.Open(theirs, fdimage.Options{ReadOnly: true})
	require.NoError(t, err)
	defer im.Close()
	dd := im.Disk()
	require.Equal(t, 40, dd.Cylinders)
	require.Equal(t, 2, dd.Heads)
	for _, tr := range dd.Tracks {
		require.Len(t, tr.Sectors, 10)
		for _, s := range tr.Sectors {
			off := ((tr.Cyl*2+tr.Head)*10 + int(s.R) - 17) * 512
			require.Equal(t, raw[off:off+512], s.Data, "c %d h %d r %d", tr.Cyl, tr.Head, s.R)
		}
	}
}

func TestFloppyCreateAndInfo(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.imd")
	require.NoError(t, floppyCreate(&bytes.Buffer{}, p, "amp4", 0, systemFlags{}, stamp))
	var out bytes.Buffer
	require.NoError(t, floppyInfo(&out, p, ""))
	s := out.String()
	assert.Contains(t, s, "IMD")
	assert.Contains(t, s, "80 cylinders x 2 heads")
	assert.Contains(t, s, "160 tracks: MFM 5 sectors of 1024 bytes, map 17,20,18,21,19")
	assert.Contains(t, s, "bad sectors: none")
	b, _ := os.ReadFile(p)
	assert.True(t, bytes.HasPrefix(b, []byte("IMD 1.18: 01/12/2026 03:00:00\r\n")))

	for name, c := range map[string]struct {
		path, format string
		want         string
	}{
		"exists":    {p, "amp4", "already exists"},
		"no format": {filepath.Join(dir, "x.img"), "", "--format is required"},
		"bad":       {filepath.Join(dir, "y.img"), "amp9", "unknown format"},
	} {
		err := floppyCreate(&out, c.path, c.format, 0, systemFlags{}, stamp)
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), c.want, name)
		assert.Contains(t, err.Error(), c.path, name)
	}
	err := floppyCreate(&out, filepath.Join(dir, "z.img"), "amp2", 1, systemFlags{}, stamp)
	assert.ErrorContains(t, err, "keeps no sector order")
	require.NoError(t, floppyCreate(&out, filepath.Join(dir, "z.imd"), "amp2", 1, systemFlags{}, stamp))
	amb := filepath.Join(dir, "amb.img")
	require.NoError(t, os.WriteFile(amb, make([]byte, 409600), 0o644))
	err = floppyInfo(&out, amb, "")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "amp2 or amp3")
	require.NoError(t, floppyInfo(&out, amb, "amp3"))
}

// `lbplus run --fd0 boot.imd`: the boot ROM reads the boot sector of an
// amp2 disk (cylinder 0, head 0, sector 17) through the WD1772 and runs it.
func TestRunBootsFloppy(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "boot.imd")
	require.NoError(t, floppyCreate(&bytes.Buffer{}, p, "amp2", 0, systemFlags{}, stamp))
	blk, err := bootdemo.Block()
	require.NoError(t, err)
	im, err := fdimage.Open(p, fdimage.Options{})
	require.NoError(t, err)
	tr := im.Disk().Track(0, 0)
	i := tr.Find(17)
	s := tr.Sectors[i]
	s.Data = blk
	require.NoError(t, im.WriteSector(0, 0, i, s))
	require.NoError(t, im.Close())

	vcdFile := filepath.Join(dir, "boot.vcd")
	cmd, rs := runSessionFor(t, "--fd0", p+",ro", "--vcd", vcdFile)
	cfg, err := rs.config(cmd)
	require.NoError(t, err)
	require.ElementsMatch(t, []emu.Floppy{{Drive: 0, Image: p, ReadOnly: true}, {Drive: 1, Type: "48tpi"}}, cfg.Floppies)
	tr2 := &console.Transcript{}
	cfg.ConsoleOut = tr2.Out
	b, err := emu.New(cfg)
	require.NoError(t, err)
	defer b.Close()
	// Record the floppy signals beside the SCSI bus while it boots.
	require.NoError(t, rs.attachBusTrace(b))
	ty := &console.Typist{B: b, T: tr2}
	require.NoError(t, ty.WaitFor(bootdemo.Message))
	assert.True(t, b.FloppyDrive(0).WriteProtected())
	assert.Equal(t, 0, b.FloppyDrive(0).Cylinder())
	var exitErr error
	rs.exitHooks(&exitErr)
	require.NoError(t, exitErr)
	vcd, err := os.ReadFile(vcdFile)
	require.NoError(t, err)
	assert.Contains(t, string(vcd), "$var wire 1 ")
	for _, w := range []string{"FDC_DRQ", "FD0_INDEX", "FD0_MOTOR", "FD0_READY", "BSY", "DB7"} {
		assert.Contains(t, string(vcd), " "+w+" $end", w)
	}
	// DRQ rises and falls for each byte of the ID and the boot sector.
	var drqID string
	for _, l := range strings.Split(string(vcd), "\n") {
		if strings.HasSuffix(l, " FDC_DRQ $end") {
			drqID = strings.Fields(l)[3]
		}
	}
	require.NotEmpty(t, drqID)
	assert.GreaterOrEqual(t, strings.Count(string(vcd), "\n1"+drqID+"\n"), 512+6)
}

func TestParseFloppyFlag(t *testing.T) {
	f, err := parseFloppyFlag(2, "a.img,format=amp3,ro,type=96tpi")
	require.NoError(t, err)
	assert.Equal(t, emu.Floppy{Drive: 2, Image: "a.img", Format: "amp3", ReadOnly: true, Type: "96tpi"}, f)
	f, err = parseFloppyFlag(1, "old.td0,convert=new.imd")
	require.NoError(t, err)
	assert.Equal(t, emu.Floppy{Drive: 1, Image: "old.td0", Convert: "new.imd"}, f)
	for _, bad := range []string{"", ",ro", "a.img,rw", "a.img,format=", "a.td0,convert="} {
		_, err := parseFloppyFlag(1, bad)
		require.Error(t, err, bad)
		assert.Contains(t, err.Error(), "--fd1")
	}
}

func TestBenchFloppyJSON(t *testing.T) {
	out, _, err := execute("bench", "floppy", "--json", "--interleave", "2", "--loop", "67")
	require.NoError(t, err)
	var rows []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	require.Len(t, rows, 1)
	for _, k := range []string{"interleave", "loop_t_states", "ms_per_track", "lost_data_retries"} {
		assert.Contains(t, rows[0], k)
	}
	assert.EqualValues(t, 2, rows[0]["interleave"])
	assert.InDelta(t, 400, rows[0]["ms_per_track"], 30)
}

// The escape prompt's floppy commands: eject, insert (disk change while
// running), and one clear line for bad input.
func TestRunMenuFloppy(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.imd")
	require.NoError(t, floppyCreate(&bytes.Buffer{}, p, "amp2", 0, systemFlags{}, stamp))
	cfg := emu.DefaultConfig(emu.StubROM(0))
	cfg.Floppies = []emu.Floppy{{Drive: 0, Image: p}, {Drive: 1}}
	b, err := emu.New(cfg)
	require.NoError(t, err)
	defer b.Close()
	assert.Contains(t, menuLine(b, "drives"), "drive 1: (empty)")
	assert.Equal(t, "drive 0: ejected\r\n", menuLine(b, "eject 0"))
	assert.Nil(t, b.FloppyDrive(0).Media())
	assert.Equal(t, "drive 1: "+p+" inserted\r\n", menuLine(b, "insert 1 "+p))
	assert.NotNil(t, b.FloppyDrive(1).Media())
	for line, want := range map[string]string{
		"insert 2 " + p: "floppy drive 2 is not cabled",
		"insert 0 " + filepath.Join(dir, "x.imd"): "no such floppy image",
		"insert 0 " + p: "in use",
		"eject 7":       "usage: eject 0-3",
		"fly":           "commands:",
	} {
		got := menuLine(b, line)
		assert.Contains(t, got, want, line)
		assert.Equal(t, 1, strings.Count(got, "\r\n"), line)
	}
}

// Bad inputs as a user gives them, to `floppy info` and to `run --fdN`:
// one line naming the file and the problem each, never a panic.
func TestFloppyBadInputs(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.imd")
	require.NoError(t, floppyCreate(&bytes.Buffer{}, good, "amp2", 0, systemFlags{}, stamp))
	b, _ := os.ReadFile(good)
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, data, 0o644))
		return p
	}
	cases := []struct {
		name, path, want string
	}{
		{"missing", filepath.Join(dir, "none.imd"), "no such floppy image"},
		{"directory", dir, "is a directory"},
		{"truncated IMD", write("trunc.imd", b[:len(b)-1000]), "truncated"},
		{"garbage header", write("junk.imd", []byte("this is not a disk image at all")), "not an ImageDisk file"},
		{"odd raw size", write("odd.img", make([]byte, 300000)), "matches no format"},
		{"ambiguous raw", write("amb.img", make([]byte, 409600)), "could be amp2 or amp3"},
	}
	for _, c := range cases {
		err := floppyInfo(&bytes.Buffer{}, c.path, "")
		require.Error(t, err, c.name)
		assert.Contains(t, err.Error(), c.want, c.name)
		assert.Contains(t, err.Error(), c.path, c.name)
		assert.NotContains(t, err.Error(), "\n", c.name)

		cfg := emu.DefaultConfig(emu.StubROM(0))
		f, err := parseFloppyFlag(0, c.path)
		require.NoError(t, err)
		cfg.Floppies = []emu.Floppy{f}
		_, err = emu.New(cfg)
		require.Error(t, err, c.name)
		assert.Contains(t, err.Error(), "floppy drive 0: "+c.path, c.name)
		assert.NotContains(t, err.Error(), "\n", c.name)
	}
	// The same image in two drives: the second is refused (locked).
	cfg := emu.DefaultConfig(emu.StubROM(0))
	cfg.Floppies = []emu.Floppy{{Drive: 0, Image: good}, {Drive: 1, Image: good}}
	_, err := emu.New(cfg)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "floppy drive 1: "+good+": image is in use")
	// and the first drive's lock was released with the failed machine.
	cfg.Floppies = cfg.Floppies[:1]
	m, err := emu.New(cfg)
	require.NoError(t, err)
	m.Close()
}
