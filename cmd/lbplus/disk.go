package main

import (
	"fmt"
	"io"

	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lbplus/lbplus/devices/acb4000"
	"github.com/lbplus/lbplus/devices/scsihd"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/sysdisk"
)

// newDiskCmd makes and inspects hard-disk images: ACB-4000 ones (raw
// 512-byte blocks plus a FILE.toml sidecar) and raw ones for scsihd.
func newDiskCmd(a *app) *cobra.Command {
	diskCmd := &cobra.Command{
		Use:   "disk",
		Short: "Make and inspect hard-disk images (ACB-4000, scsihd)",
	}
	var (
		geometry    string
		interleave  int
		unformatted bool
		system      systemFlags
		typ, size   string
		diskdefs    bool
	)
	create := &cobra.Command{
		Use:   "create FILE",
		Short: "Make a new disk image (ACB-4000: FILE plus FILE.toml; scsihd: raw FILE)",
		Long: `Make a new disk image. --type acb4000 (the default): FILE holds the drive's
512-byte blocks in LBA order and FILE.toml its geometry and format state. By
default the image is formatted at --interleave, filled with 6Ch as FORMAT
UNIT leaves it; with --unformatted the host must FORMAT UNIT it first.
--type scsihd --size N: a raw image of N bytes (a whole number of 512-byte
blocks; K, M and G suffixes are powers of 1024), blank, for --scsi
ID=scsihd:FILE (docs/SCSIHD.md). An existing FILE is never replaced.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := system.check(cmd); err != nil {
				return err
			}
			flags := cmd.Flags()
			switch typ {
			case "acb4000":
				if flags.Changed("size") {
					return fmt.Errorf("%s: --size is for --type scsihd; an ACB-4000 disk's size is its --geometry", args[0])
				}
			case "scsihd":
				for _, f := range []string{"geometry", "interleave", "unformatted"} {
					if flags.Changed(f) {
						return fmt.Errorf("%s: --%s is for --type acb4000; a scsihd disk is raw, 1:1, its size --size", args[0], f)
					}
				}
				n, err := parseSize(size)
				if err != nil {
					return fmt.Errorf("%s: --size %w", args[0], err)
				}
				if part := int64(cpmbios.PartTracks * cpmbios.TrackBlocks * cpmbios.BlockSize); system.on && n < part {
					return fmt.Errorf("%s: %d bytes is too small for a CP/M partition (%d bytes)", args[0], n, part)
				}
				a.cleanScratchOnSignal()
				if err := scsihd.Create(args[0], n); err != nil {
					return err
				}
				if _, err := fmt.Fprintf(cmd.OutOrStdout(), "%s: raw image, %d blocks (%d bytes), for --scsi ID=scsihd:FILE: %s\n",
					args[0], n/scsihd.BlockSize, n, scsihdLayout(n/scsihd.BlockSize)); err != nil || !system.on {
					return err
				}
				return diskCreateSystem(cmd.OutOrStdout(), args[0], false, system)
			default:
				return fmt.Errorf("%s: --type %q: want acb4000 or scsihd", args[0], typ)
			}
			a.cleanScratchOnSignal() // Ctrl-C leaves no half-made image
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
	f.StringVar(&typ, "type", "acb4000", "acb4000 (image plus sidecar) or scsihd (raw image, --size)")
	f.StringVar(&size, "size", "", "with --type scsihd: the disk's size in bytes, e.g. 64M or 1G")
	addSystemFlags(f, &system)

	info := &cobra.Command{
		Use:   "info FILE",
		Short: "Show a disk image's geometry, format state and CP/M partitions",
		Long: `Show a disk image's geometry and format state, and its CP/M system and
partitions if it has ours. --diskdefs prints the cpmtools disk definitions
of its partitions instead (save them as diskdefs beside the image, then
cpmls -f lbplus-hd0 FILE).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return diskReport(cmd.OutOrStdout(), args[0], diskdefs)
		},
	}
	info.Flags().BoolVar(&diskdefs, "diskdefs", false, "print cpmtools diskdefs for the disk's CP/M partitions")
	diskCmd.AddCommand(create, info)
	return diskCmd
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

// parseSize reads a size in bytes with an optional K, M or G suffix
// (powers of 1024).
func parseSize(s string) (int64, error) {
	mult := int64(1)
	num := strings.ToUpper(s)
	for suffix, m := range map[string]int64{"K": 1 << 10, "M": 1 << 20, "G": 1 << 30} {
		if p, ok := strings.CutSuffix(num, suffix); ok {
			num, mult = p, m
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > (scsihd.MaxBlocks*scsihd.BlockSize)/mult {
		return 0, fmt.Errorf("%q: want a size in bytes, e.g. 64M, 1G or 41820K (up to 2T)", s)
	}
	return n * mult, nil
}

// diskInfo is `disk info`: diskReport without --diskdefs.
func diskInfo(w io.Writer, path string) error { return diskReport(w, path, false) }

// diskReport describes a disk image: its geometry (an ACB-4000 image, or
// a raw one an ACB-4000 can take), or its blocks (a raw one only scsihd
// takes); then its CP/M system, or with diskdefs only the cpmtools
// definitions of its partitions.
func diskReport(w io.Writer, path string, diskdefs bool) error {
	f, err := sysdisk.OpenHD(path, true)
	if err != nil {
		return err
	}
	cfg, hasSys, err := cpmbios.ReadHDConfig(f)
	raw := f.Raw()
	blocks := f.Blocks()
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if diskdefs {
		if !hasSys {
			return fmt.Errorf("%s: not an lbplus CP/M disk (no configuration in block %d); make one with lbplus disk create --system", path, cpmbios.ConfigBlock)
		}
		return writeDiskdefs(w, cfg)
	}
	if !raw || acbTakes(blocks) {
		if err := acbInfo(w, path); err != nil {
			return err
		}
	}
	if raw {
		// Either model takes a raw image: say what scsihd makes of it too.
		if _, err := fmt.Fprintf(w, "%s: raw image, %d blocks (%d bytes), for --scsi ID=scsihd:FILE: %s\n", path, blocks, blocks*512, scsihdLayout(blocks)); err != nil {
			return err
		}
	}
	return hdSystemInfo(w, path, cfg, hasSys)
}

// acbTakes reports whether an ACB-4000 takes a raw image of blocks blocks.
func acbTakes(blocks int64) bool {
	_, err := acb4000.RawGeometry(blocks)
	return err == nil
}

// scsihdLayout describes how scsihd lays out a raw image of blocks blocks.
func scsihdLayout(blocks int64) string {
	p := scsihd.DefaultParams()
	perCyl := int64(p.Heads * p.SectorsPerTrack)
	return chsLayout((blocks+perCyl-1)/perCyl, p.Heads, p.SectorsPerTrack, blocks)
}

// chsLayout names a geometry of cyls cylinders holding blocks blocks. When
// the blocks do not fill the last cylinder the product would overstate the
// disk, so the line says how much of it exists.
func chsLayout(cyls int64, heads, sectors int, blocks int64) string {
	s := fmt.Sprintf("%d cylinders x %d heads x %d sectors", cyls, heads, sectors)
	perCyl := int64(heads * sectors)
	if part := blocks - (cyls-1)*perCyl; cyls > 0 && part != perCyl {
		s += fmt.Sprintf(" (the last cylinder partial: %d of its %d blocks)", part, perCyl)
	}
	return s
}

// hdSystemInfo adds the CP/M system's line when the disk has one.
func hdSystemInfo(w io.Writer, path string, cfg cpmbios.HDConfig, hasSys bool) error {
	if !hasSys {
		return nil
	}
	return systemInfo(w, path, cfg, "")
}

// acbInfo is the line of an image an ACB-4000 takes.
func acbInfo(w io.Writer, path string) error {
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
	_, err = fmt.Fprintf(w, "%s: %s, %s of %d bytes, %d blocks (%d bytes), %s\n",
		path, m.Geometry, chsLayout(int64(g.Cylinders), g.Heads, g.Sectors, int64(d.Blocks())), g.SectorSize, d.Blocks(), d.Blocks()*g.SectorSize, format)
	return err
}
