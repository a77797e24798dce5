package monitor

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBootable(t *testing.T) {
	for _, tt := range []struct {
		sector []byte
		want   bool
	}{
		{[]byte{0x21, 0, 0}, true}, {[]byte{0x3E, 0x40}, true}, {[]byte{0x00}, false},
		{[]byte{0xC3, 0, 0x90}, false}, {[]byte{0x6C}, false}, {nil, false},
	} {
		assert.Equal(t, tt.want, Bootable(tt.sector), "% x", tt.sector)
	}
}
