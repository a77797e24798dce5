package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/lbplus/lbplus/devices/image"
	"github.com/lbplus/lbplus/devices/mcd403"
)

// newTapeCmd makes and inspects MCD-403 cartridge images (4848 raw 8 KB
// blocks plus a FILE.toml sidecar).
func newTapeCmd(a *app) *cobra.Command {
	tapeCmd := &cobra.Command{
		Use:   "tape",
		Short: "Make and inspect MCD-403 tape cartridge images",
	}
	var (
		interleave   int
		zeros        bool
		writeProtect bool
	)
	create := &cobra.Command{
		Use:   "create FILE",
		Short: "Make a blank cartridge image (FILE plus its FILE.toml sidecar)",
		Long: `Make a blank MCD-403 cartridge image: FILE holds its 4848 blocks of 8192
bytes (a sparse file) and FILE.toml the tape interleave, the written blocks,
the format version and write protection. Blocks never written read back as
BLANK CHECK, or as zeros with --zeros. An existing FILE is never replaced.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			a.cleanScratchOnSignal() // Ctrl-C leaves no half-made image
			return tapeCreate(cmd.OutOrStdout(), args[0], interleave, zeros, writeProtect)
		},
	}
	f := create.Flags()
	f.IntVar(&interleave, "interleave", 3, "tape interleave k: consecutive blocks k slots apart (1-16)")
	f.BoolVar(&zeros, "zeros", false, "unwritten blocks read as zeros instead of BLANK CHECK")
	f.BoolVar(&writeProtect, "write-protect", false, "set the cartridge's write-protect tab")

	info := &cobra.Command{
		Use:   "info FILE",
		Short: "Show a cartridge image's interleave and written blocks",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return tapeInfo(cmd.OutOrStdout(), args[0])
		},
	}
	tapeCmd.AddCommand(create, info)
	return tapeCmd
}

func tapeCreate(w io.Writer, path string, interleave int, zeros, writeProtect bool) error {
	max := mcd403.DefaultParams().MaxInterleave
	if interleave < 1 || interleave > max {
		return fmt.Errorf("%s: interleave %d out of range 1-%d", path, interleave, max)
	}
	m := mcd403.NewMeta(interleave)
	if zeros {
		m.Unwritten = mcd403.UnwrittenZeros
	}
	m.WriteProtect = writeProtect
	if err := image.Create(path, m, 0); err != nil {
		return err
	}
	return tapeInfo(w, path)
}

func tapeInfo(w io.Writer, path string) error {
	t, err := mcd403.Open(path, true)
	if err != nil {
		return err
	}
	defer t.Close()
	m := t.Meta()
	n := 0
	for _, r := range m.Written {
		n += r[1] - r[0] + 1
	}
	wp := ""
	if m.WriteProtect {
		wp = ", write-protected"
	}
	_, err = fmt.Fprintf(w, "%s: MCD-403 cartridge, %d blocks of %d bytes, interleave %d:1, %d blocks written%s\n",
		path, m.Blocks, m.BlockSize, m.Interleave, n, wp)
	return err
}
