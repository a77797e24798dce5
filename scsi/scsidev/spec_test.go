package scsidev

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseSpec(t *testing.T) {
	tests := []struct {
		arg  string
		want Spec
		err  string
	}{
		{"0=acb4000:hd0.img", Spec{ID: 0, Type: "acb4000", Images: []string{"hd0.img"}}, ""},
		{"0=acb4000:a.img,b.img", Spec{ID: 0, Type: "acb4000", Images: []string{"a.img", "b.img"}}, ""},
		{"3=mcd403,ro:t.tape", Spec{ID: 3, Type: "mcd403", Images: []string{"t.tape"}, ReadOnly: true}, ""},
		{"2=acb4000,geometry=st125:d.hda", Spec{ID: 2, Type: "acb4000", Images: []string{"d.hda"}, Geometry: "st125"}, ""},
		{"2=acb4000,interleave=9,ro:d.hda", Spec{ID: 2, Type: "acb4000", Images: []string{"d.hda"}, Interleave: 9, ReadOnly: true}, ""},
		{"7=scsihd:big.img", Spec{ID: 7, Type: "scsihd", Images: []string{"big.img"}}, ""},
		{"2=acb4000,interleave=0:d.hda", Spec{}, `interleave "0": want a number from 1`},
		{"2=acb4000,interleave=x:d.hda", Spec{}, `interleave "x": want a number from 1`},
		{"acb4000:x", Spec{}, "no ID="},
		{"9=acb4000:x", Spec{}, "the ID is a number 0-7"},
		{"-1=acb4000:x", Spec{}, "the ID is a number 0-7"},
		{"0=acb4000", Spec{}, "no image FILE"},
		{"0=acb4000:", Spec{}, "no image FILE"},
		{"0=acb4000,fast:x", Spec{}, `unknown option "fast" (ro, geometry=NAME, interleave=N)`},
	}
	for _, tt := range tests {
		got, err := ParseSpec(tt.arg)
		if tt.err != "" {
			assert.ErrorContains(t, err, tt.err, tt.arg)
			assert.ErrorContains(t, err, `"`+tt.arg+`": `, "the error quotes what was given")
			assert.ErrorContains(t, err, "(want ID=TYPE:FILE, e.g. 0=acb4000:hd0.img)", tt.arg)
			continue
		}
		require.NoError(t, err, tt.arg)
		assert.Equal(t, tt.want, got, tt.arg)
	}
}

// ParseImage takes the options after the file; a comma that does not
// start an option stays in the file name.
func TestParseImage(t *testing.T) {
	tests := []struct {
		arg  string
		want Spec
		err  string
	}{
		{"a.img", Spec{Images: []string{"a.img"}}, ""},
		{"a.img,ro", Spec{Images: []string{"a.img"}, ReadOnly: true}, ""},
		{"d.hda,geometry=st125,interleave=2", Spec{Images: []string{"d.hda"}, Geometry: "st125", Interleave: 2}, ""},
		{"d.hda,interleave=5,ro", Spec{Images: []string{"d.hda"}, Interleave: 5, ReadOnly: true}, ""},
		{"my,disk.hda,interleave=5", Spec{Images: []string{"my,disk.hda"}, Interleave: 5}, ""},
		{"d.hda,fast", Spec{Images: []string{"d.hda,fast"}}, ""},
		{"d.hda,interleave=-2", Spec{}, `interleave "-2": want a number from 1 (1:1) to the sectors per track - 1`},
	}
	for _, tt := range tests {
		got, err := ParseImage(Spec{ID: 4, Type: "acb4000"}, tt.arg)
		if tt.err != "" {
			assert.EqualError(t, err, tt.err, tt.arg)
			continue
		}
		require.NoError(t, err, tt.arg)
		tt.want.ID, tt.want.Type = 4, "acb4000"
		assert.Equal(t, tt.want, got, tt.arg)
	}
}

func TestSplitReadOnly(t *testing.T) {
	for _, tc := range []struct {
		in, path string
		ro       bool
	}{{"t.tape", "t.tape", false}, {"t.tape,ro", "t.tape", true}, {"a,ro,b", "a,ro,b", false}} {
		p, ro := SplitReadOnly(tc.in)
		assert.Equal(t, tc.path, p, tc.in)
		assert.Equal(t, tc.ro, ro, tc.in)
	}
}
