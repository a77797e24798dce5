// Package cpmtape is BACKUP.COM and RESTORE.COM for lbplus's CP/M: a hard
// disk partition to the MCD-403 tape and back with the story's best
// settings (8 KB disk READs in 256-byte bursts, 8 KB tape blocks in 16-byte
// bursts). One source, cpmtape.asm (embedded), assembled twice by lbplus's
// assembler; docs/CPM.md describes their use.
//
// Known inaccuracies / assumptions: the disk is SCSI ID 0 and the tape ID 1
// (lbplus run --hd0 and --tape); the tape holds one partition from block
// 0 on, with no label or check that it is the same partition [A].
package cpmtape

import (
	"embed"
	"fmt"
	"sync"

	"github.com/lbplus/lbplus/asm"
	"github.com/lbplus/lbplus/roms/cpm"
	"github.com/lbplus/lbplus/roms/scsilib"
)

//go:embed cpmtape.asm
var src embed.FS

var (
	once   sync.Once
	progs  [2][]byte
	buildE error
)

func build() {
	fsys := asm.UnionFS(src, cpm.FS, scsilib.FS)
	for i := range progs {
		r, err := asm.Assemble(fsys, "cpmtape.asm", asm.Options{Defines: map[string]int64{"RESTORE": int64(i)}})
		if err != nil {
			buildE = fmt.Errorf("cpmtape: %w", err)
			return
		}
		if r.Org != 0x100 || len(r.Bytes) > 0x3000 {
			buildE = fmt.Errorf("cpmtape: %d bytes at %04Xh, want at most 3000h at %04Xh (the buffer is at 4000h)", len(r.Bytes), r.Org, 0x100)
			return
		}
		progs[i] = r.Bytes
	}
}

// Backup returns BACKUP.COM (shared: do not modify).
func Backup() ([]byte, error) {
	once.Do(build)
	return progs[0], buildE
}

// Restore returns RESTORE.COM (shared).
func Restore() ([]byte, error) {
	once.Do(build)
	return progs[1], buildE
}
