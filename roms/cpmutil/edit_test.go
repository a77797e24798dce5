package cpmutil_test

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/cpmfs"
	"github.com/lbplus/lbplus/roms/cpm/cpmtest"
)

// diskSectors lets cpmfs read and write a cpmtest disk image.
type diskSectors struct{ d *cpmtest.Disk }

func (s diskSectors) off(t, sec int) int { return (t*s.d.F.SecTrk + sec) * s.d.F.SecLen }
func (s diskSectors) ReadSector(t, sec int, buf []byte) error {
	copy(buf, s.d.Data[s.off(t, sec):])
	return nil
}
func (s diskSectors) WriteSector(t, sec int, buf []byte) error {
	copy(s.d.Data[s.off(t, sec):], buf)
	return nil
}

// diskFS opens the file system of a disk; files written through it must
// go on a drive the BDOS has not logged in since the last warm boot.
func diskFS(t *testing.T, d *cpmtest.Disk) *cpmfs.FS {
	t.Helper()
	f := d.F
	fs, err := cpmfs.Open(diskSectors{d}, cpmfs.Geometry{Name: f.Name, SecLen: f.SecLen, SecTrk: f.SecTrk,
		Tracks: f.Tracks, BlockSize: f.BlockSize, MaxDir: f.MaxDir, BootTrk: f.BootTrk})
	require.NoError(t, err)
	return fs
}

// fileOf reads a file of user 0 back from the disk image.
func fileOf(t *testing.T, d *cpmtest.Disk, name string) []byte {
	t.Helper()
	b, err := diskFS(t, d).Read(0, name)
	require.NoError(t, err, name)
	return b
}

func names(t *testing.T, d *cpmtest.Disk) []string {
	var n []string
	for _, f := range diskFS(t, d).List() {
		n = append(n, f.Name)
	}
	return n
}

// text is a CP/M text file: CR LF lines, a ^Z and the last record filled
// with ^Z.
func text(lines ...string) []byte {
	var b []byte
	for _, l := range lines {
		b = append(b, l+"\r\n"...)
	}
	return padZ(append(b, 0x1a))
}

func padZ(b []byte) []byte {
	for len(b)%128 != 0 {
		b = append(b, 0x1a)
	}
	return b
}

// A new file: lines appended, one replaced by two, one added at the top;
// written, and EDIT leaves without asking. Tabs typed are kept (the
// console shows them to the next multiple of 8 columns).
func TestEditNewFile(t *testing.T) {
	m := machine(t, "EDIT")
	m.Type("EDIT NEW.TXT\r", "A\r", "first line\r", "\tsecond, after a tab\r", "\r", ".\r", "L\r",
		"R 2\r", "two\r", "and a half\r", ".\r", "a 0\r", "top\r", ".\r", "L 1,$\r", "W\r", "Q\r", "DIR\r")
	require.ErrorIs(t, m.Run(500_000_000), cpmtest.ErrInput)
	out := m.Transcript()
	assert.Contains(t, out, "EDIT NEW.TXT\nNEW FILE\n0*A\n    1:  first line\n    2:          second, after a tab\n    3:  \n    4:  .\n3*L\n    3:  \n")
	assert.Contains(t, out, "3*R 2\n    2:  two\n    3:  and a half\n    4:  .\n3*a 0\n    1:  top\n    2:  .\n1*L 1,$\n"+
		"    1:  top\n    2:  first line\n    3:  two\n    4:  and a half\n    5:  \n5*W\n5 LINES WRITTEN\n5*Q\n\nA>DIR\nA: EDIT     COM : NEW      TXT\nA>",
		"no .BAK of a new file, no question")
	assert.Equal(t, text("top", "first line", "two", "and a half", ""), fileOf(t, m.Disks[0], "NEW.TXT"))
}

// An existing file: listed, a line inserted in the middle, one deleted,
// one changed, one found; E writes it, the old file becomes NOTES.BAK.
func TestEditExistingFile(t *testing.T) {
	m := machine(t, "EDIT")
	var lines []string
	for i := 1; i <= 20; i++ {
		lines = append(lines, fmt.Sprintf("line %d of twenty", i))
	}
	orig := text(lines...)
	require.NoError(t, m.Save("NOTES.TXT", padZ256(orig)))
	m.Out.Reset()
	m.Type("EDIT NOTES.TXT\r", "L\r", "L\r", "L 3,4\r", "\r", "3\r", "I\r", "new third\r", ".\r", "d 6\r", "s/of/out of/\r",
		"F 17\r", "S,twenty,20\r", "$\r", "F line 1\r", "F\r", "F\r", "F nowhere\r", "L 1,5\r", "E\r", "DIR\r")
	require.ErrorIs(t, m.Run(1_000_000_000), cpmtest.ErrInput)
	out := m.Transcript()
	golden(t, "edit.txt", out)
	want := append([]string{}, lines[:2]...)
	want = append(want, "new third")
	want = append(want, lines[2:4]...)
	want = append(want, strings.Replace(lines[5], "of", "out of", 1))
	want = append(want, lines[6:]...)
	want[16] = "line 17 of 20"
	assert.Equal(t, text(want...), fileOf(t, m.Disks[0], "NOTES.TXT"))
	assert.Equal(t, padZ256(orig), fileOf(t, m.Disks[0], "NOTES.BAK"))
	assert.Contains(t, out, "A: EDIT     COM : NOTES    BAK : NOTES    TXT\n")
}

// padZ256 fills out to SAVE's whole pages with ^Z.
func padZ256(b []byte) []byte {
	b = padZ(b)
	for len(b)%256 != 0 {
		b = append(b, 0x1a)
	}
	return b
}

// Q with changes not written asks; N goes back to editing, Y leaves and
// writes nothing; Q! leaves at once; errors in commands and in the file
// name say so.
func TestEditQuit(t *testing.T) {
	m := machine(t, "EDIT")
	require.NoError(t, m.Save("KEEP.TXT", padZ256(text("keep me"))))
	m.Out.Reset()
	m.Type("EDIT\r", "EDIT *.TXT\r", "EDIT KEEP.$$$\r", "EDIT KEEP.TXT\r", "D\r", "Q\r", "n\r", "H\r", "X\r", "L 2\r", "L 1,\r", "99999999\r", "W *.TXT\r", "W B:NINECHARS.TXT\r", "W X.$$$\r", "E Q:X\r", "A 5\r", "S/x\r", "Q\r", "y\r",
		"EDIT KEEP.TXT\r", "D\r", "Q!\r", "EDIT KEEP.TXT\r", "Q\r", "DIR\r")
	require.ErrorIs(t, m.Run(1_000_000_000), cpmtest.ErrInput)
	out := m.Transcript()
	golden(t, "editquit.txt", out)
	assert.Equal(t, 2, strings.Count(out, "QUIT ANYWAY (Y/N)? "))
	assert.Equal(t, 3, strings.Count(out, "USAGE: EDIT [d:]name.typ\nA>"), "no name, a wildcard, the temporary's type")
	assert.Contains(t, out, "0*Q!\n\nA>EDIT KEEP.TXT\n1 LINE\n1*Q\n\nA>", "no question without changes")
	assert.Equal(t, padZ256(text("keep me")), fileOf(t, m.Disks[0], "KEEP.TXT"))
	assert.Equal(t, []string{"EDIT.COM", "KEEP.TXT"}, names(t, m.Disks[0]))
}

// Line ends a file may have: CR LF, LF alone or CR alone end a line, NULs
// are dropped, ^Z or the end of the last record ends the text, a last line
// without its end gets one; long lines and tabs are kept. W writes them
// back as CR LF lines and a ^Z.
func TestEditLineEnds(t *testing.T) {
	long := "\t" + strings.Repeat("0123456789", 30)
	noZ := strings.Repeat("x", 126) + "\r\n"
	for _, tc := range []struct {
		name, in string
		want     []byte
		lines    int
	}{
		{"crlf", "a\r\nb\r\n\x1a", text("a", "b"), 2},
		{"lf", "a\nb\n\x1a", text("a", "b"), 2},
		{"cr", "a\rb\r\x1a", text("a", "b"), 2},
		{"empty lines", "\r\n\n\r\r\n\x1a", text("", "", "", ""), 4},
		{"no end", "a\r\nlast", text("a", "last"), 2},
		{"no ^Z", noZ, text(noZ[:126]), 1},
		{"nul", "a\r\n\x00\x00b\x00\x00", text("a", "b"), 2},
		{"long", long + "\r\n\x1a", text(long), 1},
		{"empty", "\x1a", text(), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := machine(t, "EDIT")
			b := cpmtest.NewDisk(cpmtest.Amp1)
			in := []byte(tc.in)
			for len(in)%128 != 0 {
				in = append(in, 0)
			}
			require.NoError(t, diskFS(t, b).Write(0, "IN.TXT", in))
			require.NoError(t, m.Attach(1, b, false))
			m.Type("EDIT B:IN.TXT\r", "W\r", "Q\r")
			require.ErrorIs(t, m.Run(500_000_000), cpmtest.ErrInput)
			out := m.Transcript()
			assert.Regexp(t, fmt.Sprintf("\n%d LINES?\n", tc.lines), out)
			assert.Equal(t, tc.want, fileOf(t, b, "IN.TXT"))
			assert.Equal(t, in, fileOf(t, b, "IN.BAK"))
		})
	}
}

// editRoom is how many bytes of text (a byte a line for its end) EDIT
// holds in this 60K system: from its end to the BDOS (docs/CPM.md "The
// editor").
const editRoom = 52217

// A file whose text fills memory to the last byte is edited (MEMORY FULL
// for a line more or a longer line) and written back; one byte more is
// FILE TOO BIG, back to A> with nothing written.
func TestEditFileTooBig(t *testing.T) {
	for _, extra := range []int{0, 1} {
		t.Run(fmt.Sprint(extra), func(t *testing.T) {
			m := machine(t, "EDIT")
			b := cpmtest.NewDisk(cpmtest.Amp1)
			line := strings.Repeat("x", 63)
			var lines []string
			for n := 0; n+64 <= editRoom; n += 64 {
				lines = append(lines, line)
			}
			lines = append(lines, strings.Repeat("y", editRoom%64-1+extra))
			big := text(lines...)
			require.NoError(t, diskFS(t, b).Write(0, "BIG.TXT", big))
			require.NoError(t, m.Attach(1, b, false))
			before := append([]byte(nil), b.Data...)
			m.Type("EDIT B:BIG.TXT\r", "A\r", "z\r", "S/x/xx/\r", "S/xx/x/\r", "W\r", "Q\r", "DIR B:\r")
			require.ErrorIs(t, m.Run(1_000_000_000), cpmtest.ErrInput)
			out := m.Transcript()
			if extra == 0 {
				// Full: no line more, no longer line, a shorter one is fine.
				assert.Contains(t, out, fmt.Sprintf("EDIT B:BIG.TXT\n%d LINES\n1*A\n    2:  z\nMEMORY FULL\n1*S/x/xx/\nMEMORY FULL\n1*S/xx/x/\n    1:  %s\n1*W\n",
					len(lines), line[1:]))
				assert.Equal(t, text(append([]string{line[1:]}, lines[1:]...)...), fileOf(t, b, "BIG.TXT"))
				assert.Equal(t, big, fileOf(t, b, "BIG.BAK"))
				return
			}
			assert.Contains(t, out, "EDIT B:BIG.TXT\nFILE TOO BIG\nA>A\nA?\nA>z\nZ?\n")
			assert.Contains(t, out, "A>DIR B:\nB: BIG      TXT\nA>")
			assert.Equal(t, before, b.Data, "the disk is as it was")
		})
	}
}

// W onto a disk or directory that fills up says so, deletes NOTES.$$$ and
// keeps NOTES.TXT and the text being edited, which W d:name.typ then
// writes to another disk; a read-only file or a changed disk is not
// touched. The space the attempt took is free again (STAT before and
// after).
func TestEditWriteFails(t *testing.T) {
	lines := strings.Split(strings.Repeat("some notes to keep\n", 1500), "\n")[:1500]
	notes := text(lines...) // 30K
	edited := text(append([]string{"all notes to keep"}, lines[1:]...)...)
	for _, tc := range []struct {
		name string
		fill func(t *testing.T, fs *cpmfs.FS)
		want string
	}{
		{"disk full", func(t *testing.T, fs *cpmfs.FS) {
			require.NoError(t, fs.Write(0, "FILLER.DAT", make([]byte, 140*1024)))
		}, "DISK FULL, NOT WRITTEN"},
		{"directory full", func(t *testing.T, fs *cpmfs.FS) {
			for i := range 63 { // with NOTES.TXT's one entry, all 64
				require.NoError(t, fs.Write(0, fmt.Sprintf("F%d.DAT", i), []byte("x")))
			}
		}, "DIRECTORY FULL, NOT WRITTEN"},
		{"read-only file", func(t *testing.T, fs *cpmfs.FS) {}, "FILE IS READ-ONLY, NOT WRITTEN"},
		{"changed disk", func(t *testing.T, fs *cpmfs.FS) {}, "DISK IS READ-ONLY, NOT WRITTEN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := machine(t, "EDIT", "STAT")
			b := cpmtest.NewDisk(cpmtest.Amp1)
			fs := diskFS(t, b)
			require.NoError(t, fs.Write(0, "NOTES.TXT", notes))
			tc.fill(t, fs)
			if tc.name == "read-only file" {
				setRO(t, b, "NOTES   TXT")
			}
			require.NoError(t, m.Attach(1, b, false))
			before := names(t, b)
			m.Type("STAT B:\r", "EDIT B:NOTES.TXT\r", "S/some/all/\r")
			require.ErrorIs(t, m.Run(2_000_000_000), cpmtest.ErrInput)
			if tc.name == "changed disk" {
				// Another disk in B: with the same file in another
				// directory entry: the BDOS finds it changed and makes
				// the drive read-only.
				other := cpmtest.NewDisk(cpmtest.Amp1)
				ofs := diskFS(t, other)
				require.NoError(t, ofs.Write(0, "OTHER.DAT", []byte("other")))
				require.NoError(t, ofs.Write(0, "NOTES.TXT", notes))
				require.NoError(t, ofs.Delete(0, "OTHER.DAT"))
				copy(b.Data, other.Data)
			}
			m.Type("W\r", "1\r", "E\r", "W a:notes.txt\r", "Q\r", "STAT B:\r")
			require.ErrorIs(t, m.Run(2_000_000_000), cpmtest.ErrInput)
			out := m.Transcript()
			assert.Contains(t, out, "1*S/some/all/\n    1:  all notes to keep\n1*W\n"+tc.want+"\n1*1\n    1:  all notes to keep\n1*E\n"+tc.want+
				"\n1*W a:notes.txt\n1500 LINES WRITTEN\n1*Q\n\nA>", "the text goes to another disk instead")
			assert.True(t, bytes.Equal(edited, fileOf(t, m.Disks[0], "NOTES.TXT")), "A:NOTES.TXT holds the edited text")
			assert.Equal(t, notes, fileOf(t, b, "NOTES.TXT"))
			assert.Equal(t, before, names(t, b), "no NOTES.$$$ or NOTES.BAK")
			free := regexp.MustCompile(`B: R/W, (\d+)K free of 190K`).FindAllStringSubmatch(out, -1)
			require.Len(t, free, 2)
			assert.Equal(t, free[0][1], free[1][1], "the space is free again")
		})
	}
}

// setRO sets the R/O attribute (t1') of a file's directory entries.
func setRO(t *testing.T, d *cpmtest.Disk, name string) {
	dir := d.F.BootTrk * d.F.SPT() * 128
	n := 0
	for e := dir; e < dir+d.F.MaxDir*32; e += 32 {
		if d.Data[e] == 0 && string(d.Data[e+1:e+12]) == name {
			d.Data[e+9] |= 0x80
			n++
		}
	}
	require.Positive(t, n)
}

// W d:name.typ writes the text to another file, which later Ws and E
// write too; when it fails, the file edited stays the one it was.
func TestEditWriteAs(t *testing.T) {
	m := machine(t, "EDIT")
	b := cpmtest.NewDisk(cpmtest.Amp1)
	fs := diskFS(t, b)
	require.NoError(t, fs.Write(0, "NOTES.TXT", text("one", "two")))
	require.NoError(t, fs.Write(0, "RO.TXT", text("read-only")))
	setRO(t, b, "RO      TXT")
	require.NoError(t, m.Attach(1, b, false))
	m.Type("EDIT B:NOTES.TXT\r", "S/one/1/\r", "W B:RO.TXT\r", "W\r", "2\r", "S/two/2/\r", "W c:copy.txt\r", "1\r", "S/1/one/\r", "E\r", "DIR B:\r", "DIR C:\r")
	require.ErrorIs(t, m.Run(1_000_000_000), cpmtest.ErrInput)
	out := m.Transcript()
	assert.Contains(t, out, "1*W B:RO.TXT\nFILE IS READ-ONLY, NOT WRITTEN\n1*W\n2 LINES WRITTEN\n")
	assert.Contains(t, out, "A>DIR B:\nB: NOTES    BAK : RO       TXT : NOTES    TXT\nA>DIR C:\nC: COPY     BAK : COPY     TXT\nA>")
	assert.Equal(t, text("1", "two"), fileOf(t, b, "NOTES.TXT"))
	assert.Equal(t, text("one", "two"), fileOf(t, b, "NOTES.BAK"))
	assert.Equal(t, text("read-only"), fileOf(t, b, "RO.TXT"))
	assert.Equal(t, text("one", "2"), fileOf(t, m.Disks[2], "COPY.TXT"))
	assert.Equal(t, text("1", "2"), fileOf(t, m.Disks[2], "COPY.BAK"))
}
