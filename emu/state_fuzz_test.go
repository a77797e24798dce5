package emu

import (
	"bytes"
	"encoding/gob"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/sched"
)

// FuzzLoadState feeds damaged save states to --load-state's reader and to
// a board of the same machine: each is refused with an error or loaded, and
// a loaded one runs; none panics. The seed leaves the RAM out (the body
// supplies 64 KB of zeros for a state without it), so the fuzzer works on
// the chips' and devices' few kilobytes, not on 64 KB of memory.
func FuzzLoadState(f *testing.F) {
	cfg := DefaultConfig(StubROM(0))
	b, err := New(cfg)
	if err != nil {
		f.Fatal(err)
	}
	if err := b.RunFor(5 * sched.Millisecond); err != nil {
		f.Fatal(err)
	}
	st, err := b.State()
	if err != nil {
		f.Fatal(err)
	}
	b.Close()
	st.RAM = nil
	var seed bytes.Buffer
	seed.WriteString(stateMagic)
	if err := gob.NewEncoder(&seed).Encode(st); err != nil {
		f.Fatal(err)
	}
	f.Add(seed.Bytes())
	f.Add(seed.Bytes()[:seed.Len()/2])
	f.Add([]byte("not a state"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<14 {
			return
		}
		st, err := ReadState(bytes.NewReader(data), "fuzz.state")
		if err != nil {
			return
		}
		if st.RAM == nil {
			st.RAM = make([]byte, 1<<16)
		}
		b, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		if err := b.SetState(st); err != nil {
			return
		}
		_ = b.RunFor(sched.Millisecond) // an error is a fine outcome; a panic is not
	})
}

// TestReadStateDamagedLengths: a damaged state whose gob message claims
// far more bytes than the file holds is refused as damaged before the
// decoder allocates for it; so is a truncated one, and anything past
// MaxStateBytes.
func TestReadStateDamagedLengths(t *testing.T) {
	huge := append([]byte(stateMagic), 0xFC, 0x3F, 0xFF, 0xFF, 0xF0, 1, 2, 3)
	_, err := ReadState(bytes.NewReader(huge), "x.state")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "x.state: damaged save state: a message of 1073741808 bytes where 3 are left")

	b, err := New(DefaultConfig(StubROM(0)))
	require.NoError(t, err)
	defer b.Close()
	var saved bytes.Buffer
	require.NoError(t, b.SaveState(&saved))
	_, err = ReadState(bytes.NewReader(saved.Bytes()), "x.state")
	require.NoError(t, err)
	_, err = ReadState(bytes.NewReader(saved.Bytes()[:saved.Len()-10]), "x.state")
	assert.ErrorContains(t, err, "damaged save state")
	big := append(append([]byte(stateMagic), bytes.Repeat([]byte{0}, MaxStateBytes)...), 0)
	_, err = ReadState(bytes.NewReader(big), "x.state")
	assert.ErrorContains(t, err, "more than 16777216 bytes")
}
