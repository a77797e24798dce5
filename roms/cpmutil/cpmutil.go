// Package cpmutil holds lbplus's own CP/M 2.2 programs, Z80 sources
// embedded here and assembled by lbplus's assembler into .COM images for
// 0100h. All but FORMAT and XFER use only the BDOS (through 0005h), so
// they run under any CP/M 2.2; FORMAT drives the WD1772 itself and needs
// lbplus's BIOS 1.2 or later, XFER polls DART B itself (docs/CPM.md):
//
//	BDOSTEST  conformance test of BDOS functions 0-40 (docs/CPM.md)
//	WBTEST    overwrites the CCP and warm boots: A> only if reloaded
//	FORMAT    formats a floppy as amp1-amp4 (tests in roms/cpmbios)
//	XFER      XMODEM to and from the host over DART B (tests in cmd/lbplus)

package cpmutil

import (
	"embed"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/lbplus/lbplus/asm"
)

//go:embed *.asm *.inc
var src embed.FS

var (
	mu    sync.Mutex
	built = map[string][]byte{}
)

// Names lists the programs (upper case, without .COM).
func Names() []string {
	ents, _ := src.ReadDir(".")
	var n []string
	for _, e := range ents {
		if s, ok := strings.CutSuffix(e.Name(), ".asm"); ok {
			n = append(n, strings.ToUpper(s))
		}
	}
	sort.Strings(n)
	return n
}

// Program returns the .COM image of the named program (shared: do not
// modify).
func Program(name string) ([]byte, error) {
	mu.Lock()
	defer mu.Unlock()
	name = strings.ToUpper(name)
	if b, ok := built[name]; ok {
		return b, nil
	}
	file := strings.ToLower(name) + ".asm"
	if _, err := src.Open(file); err != nil {
		return nil, fmt.Errorf("cpmutil: no program %s", name)
	}
	r, err := asm.Assemble(src, file, asm.Options{})
	if err != nil {
		return nil, fmt.Errorf("cpmutil: %w", err)
	}
	if r.Org != 0x100 {
		return nil, fmt.Errorf("cpmutil: %s starts at %04Xh, not 0100h", file, r.Org)
	}
	built[name] = r.Bytes
	return r.Bytes, nil
}
