package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbplus/lbplus/asm"
)

// userROM is a stand-in for a user's own ROM dump of SIZE bytes: at reset
// it sets up CTC channel 0 and DART A at 9600 baud (docs/BOOT.md) and
// prints a message kept in the image's last bytes, so the whole dump must
// be mapped for it to appear.
const userROM = `
        org 0
        di
        ld sp,0FF00h
        ld hl,iotab
        ld b,(ioend-iotab)/2
init:   ld c,(hl)
        inc hl
        ld a,(hl)
        inc hl
        out (c),a
        djnz init
        ld hl,msg
loop:   ld a,(hl)
        or a
        jr z,$
w:      in a,(84h)
        and 4
        jr z,w
        ld a,(hl)
        out (80h),a
        inc hl
        jr loop
iotab:  db 40h,57h, 40h,13
        db 84h,18h, 84h,4, 84h,44h, 84h,3, 84h,0C1h, 84h,5, 84h,0EAh, 84h,1, 84h,0
ioend:
        ds SIZE-32-$,0FFh
msg:    db "USER ROM, last bytes reached",13,10,0
        ds SIZE-$,0FFh
`

// lbplus run --rom runs a user's 4-32 KB ROM dump instead of ours.
func TestRunUserROM(t *testing.T) {
	for _, size := range []int{4096, 8192, 16384, 32768} {
		t.Run(fmt.Sprintf("%d KB", size/1024), func(t *testing.T) {
			r, err := asm.Assemble(fstest.MapFS{"u.asm": {Data: []byte(userROM)}}, "u.asm", asm.Options{Defines: map[string]int64{"SIZE": int64(size)}})
			require.NoError(t, err)
			require.Len(t, r.Bytes, size)
			path := filepath.Join(t.TempDir(), "user.rom")
			require.NoError(t, os.WriteFile(path, r.Bytes, 0o644))
			got := runScriptWith(t, []string{"--rom", path}, []string{"USER ROM, last bytes reached\r\n"}, nil)
			assert.NotContains(t, got, "lbplus boot ROM", "ours does not run")
		})
	}
}
