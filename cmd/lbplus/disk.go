package main

import (
	"fmt"
	"io"

	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lbplus/lbplus/devices/acb4000"
)

// diskCmd makes and inspects ACB-4000 disk images (raw 512-byte blocks plus
// a FILE.toml sidecar).
var diskCmd = &cobra.Command{
	Use:   "disk",
	Short: "Make and inspect ACB-4000 disk images",
}

func init() {
	var (
		geometry    string
		interleave  int
		unformatted bool
		system      systemFlags
	)
	create := &cobra.Command{
		Use:   "create FILE",
		Short: "Make a new disk image (FILE plus its FILE.toml sidecar)",
		Long: `Make a new disk image: FILE holds the drive's 512-byte blocks in LBA order
and FILE.toml its geometry and format state. By default the image is
formatted at --interleave, filled with 6Ch as FORMAT UNIT leaves it; with
--unformatted the host must FORMAT UNIT it first. An existing FILE is never
replaced.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := system.check(cmd); err != nil {
				return err
			}
			cleanScratchOnSignal() // Ctrl-C leaves no half-made image
			if err := diskCreate(cmd.OutOrStdout(), args[0], geometry, interleave, unformatted); err != nil || !system.on {
				return err
			}
			return diskCreateSystem(cmd.OutOrStdout(), args[0], unformatted, system)
		},
	}
	f := create.Flags()
	f.StringVar(&geometry, "geometry", "st125", "drive geometry: "+strings.Join(geometryNames(), ", "))
	f.IntVar(&interleave, "interleave", 3, "FORMAT interleave (1 to sectors per track - 1)")
	f.BoolVar(&unformatted, "unformatted", false, "leave the drive unformatted")
	addSystemFlags(f, &system)

	info := &cobra.Command{
		Use:   "info FILE",
		Short: "Show a disk image's geometry and format state",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return diskInfo(cmd.OutOrStdout(), args[0])
		},
	}
	diskCmd.AddCommand(create, info)
	rootCmd.AddCommand(diskCmd)
}

func geometryNames() []string {
	var names []string
	for n := range acb4000.Geometries {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func diskCreate(w io.Writer, path, geometry string, interleave int, unformatted bool) error {
	g, ok := acb4000.Geometries[strings.ToLower(geometry)]
	if !ok {
		return fmt.Errorf("%s: unknown geometry %q (known: %s)", path, geometry, strings.Join(geometryNames(), ", "))
	}
	if !unformatted && (interleave < 1 || interleave > g.Sectors-1) {
		return fmt.Errorf("%s: interleave %d out of range 1-%d", path, interleave, g.Sectors-1)
	}
	if err := acb4000.Create(path, g, !unformatted, interleave); err != nil {
		return err
	}
	return diskInfo(w, path)
}

func diskInfo(w io.Writer, path string) error {
	d, err := acb4000.Open(path, true)
	if err != nil {
		return err
	}
	defer d.Close()
	m := d.Meta()
	g := m.Geom()
	format := "unformatted"
	if m.Formatted {
		format = fmt.Sprintf("formatted, interleave %d:1", m.Interleave)
	}
	if d.Raw() {
		format = fmt.Sprintf("raw image without a sidecar, taken as formatted at interleave %d:1", m.Interleave)
	}
	_, err = fmt.Fprintf(w, "%s: %s, %d cylinders x %d heads x %d sectors of %d bytes, %d blocks (%d bytes), %s\n",
		path, m.Geometry, g.Cylinders, g.Heads, g.Sectors, g.SectorSize, d.Blocks(), d.Blocks()*g.SectorSize, format)
	return err
}
