package emu

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lbplus/lbplus/internal/fuzztest"
	"github.com/lbplus/lbplus/sched"
)

// FuzzMachineFile feeds arbitrary text as a --machine file: it is refused
// with an error or read into a configuration that builds a board (or
// refuses to, naming why) and runs; nothing panics. One file is rewritten
// per input, on a RAM file system when there is one.
func FuzzMachineFile(f *testing.F) {
	if b, err := os.ReadFile("../docs/machine.toml"); err == nil {
		f.Add(string(b))
	}
	f.Add("scsi_id = 5\nconsole = \"tcp:2323\"\nwait_on_drq = true\n[[scsi]]\nid = 4\ntype = \"acb4000\"\nimages = [\"x.img\"]\n")
	f.Add("[jumpers]\nfdc_intrq_to_ctc_trg3 = true\n[[floppy]]\ndrive = 0\nimage = \"a.img\"\n")
	fuzztest.RAMTemp(f)
	path := filepath.Join(f.TempDir(), "m.toml")
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 1<<14 {
			return
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := ReadMachineFile(path)
		if err != nil {
			return
		}
		if cfg.ROM == nil {
			cfg.ROM = StubROM(0)
		}
		b, err := New(cfg)
		if err != nil {
			return
		}
		defer b.Close()
		_ = b.RunFor(sched.Millisecond)
	})
}
