package cpmbios_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/image"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/roms/cpmutil"
)

// EDIT on the board: a file on the hard disk edited by commands typed at
// 9600 baud through the DART (a typing slip erased with ^H in function
// 10's line input), written with E; the new file has CR LF lines and a
// ^Z, the old one is TEXT.BAK.
func TestEditOnTheBoard(t *testing.T) {
	com, err := cpmutil.Program("EDIT")
	require.NoError(t, err)
	path := systemDisk(t, ourSystem(t), cpmbios.HDConfig{Partitions: 1})
	putFile(t, path, "EDIT.COM", com)
	orig := []byte("alpha\r\nbeta\r\ngamma\r\n\x1a")
	putFile(t, path, "TEXT.TXT", orig)
	r := bootDisk(t, path)
	require.NoError(t, r.ty.WaitFor("A>"))
	for _, c := range []struct{ line, want string }{
		{"EDIT TEXT.TXT", "3 LINES\r\n1*"},
		{"L 1,$", "    1:  alpha\r\n    2:  beta\r\n    3:  gamma\r\n3*"},
		{"2", "    2:  beta\r\n2*"},
		{"I", "    2:  "},
		{"insertedd\b\tline", "    3:  "},
		{".", "2*"},
		{"$", "4*"},
		{"S/gamma/GAMMA/", "    4:  GAMMA\r\n4*"},
		{"D 1", "1*"},
		{"F beta", "    2:  beta\r\n2*"},
		{"E", "3 LINES WRITTEN\r\n"},
		{"DIR TEXT.*", "A: TEXT     BAK : TEXT     TXT\r\nA>"},
	} {
		r.cmd(t, c.line, c.want)
	}
	require.NoError(t, r.b.Close())

	var m acb4000.Meta
	f, err := image.Open(path, &m, true)
	require.NoError(t, err)
	defer f.Close()
	fs, err := cpmbios.PartitionFS(f, 0)
	require.NoError(t, err)
	got, err := fs.Read(0, "TEXT.TXT")
	require.NoError(t, err)
	want := []byte("inserted\tline\r\nbeta\r\nGAMMA\r\n\x1a")
	for len(want)%128 != 0 {
		want = append(want, 0x1a)
	}
	assert.Equal(t, want, got)
	bak, err := fs.Read(0, "TEXT.BAK")
	require.NoError(t, err)
	assert.Equal(t, orig, bak[:len(orig)])
}
