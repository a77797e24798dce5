package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/emu"
	"github.com/lbplus/lbplus/sysdisk"
)

// newFloppyCmd makes and inspects floppy images (ImageDisk .IMD or raw).
func newFloppyCmd() *cobra.Command {
	floppyCmd := &cobra.Command{
		Use:   "floppy",
		Short: "Make, inspect and convert floppy images (.imd, .td0 or raw)",
	}
	var (
		format     string
		interleave int
		system     systemFlags
	)
	create := &cobra.Command{
		Use:   "create --format amp1|amp2|amp3|amp4 FILE.img|FILE.imd",
		Short: "Make a formatted floppy image with an empty CP/M directory",
		Long: `Make a formatted floppy image: every sector of every track carries the
IDs of the format (amp2 and amp4 number sectors from 17 on both sides) and
is filled with E5h, which CP/M reads as an empty directory. A name ending
in .imd makes an ImageDisk file, any other name a raw sector dump. --format
also takes a geometry CYLxHEADSxSECTORSxSIZE[,first=N][,il=N][,fm].
An existing FILE is never replaced.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := system.check(cmd); err != nil {
				return err
			}
			return floppyCreate(cmd.OutOrStdout(), args[0], format, interleave, system, time.Now())
		},
	}
	create.Flags().StringVar(&format, "format", "", "amp1, amp2, amp3, amp4 or CxHxSxSIZE (required)")
	create.Flags().IntVar(&interleave, "interleave", 0, "physical interleave (default: the format's, 2 for amp1-amp4)")
	addFloppySystemFlags(create.Flags(), &system)
	info := &cobra.Command{
		Use:   "info FILE",
		Short: "Show a floppy image's format, geometry, sector map and bad sectors",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return floppyInfo(cmd.OutOrStdout(), args[0], format)
		},
	}
	info.Flags().StringVar(&format, "format", "", "format of a raw image whose size is ambiguous")
	var force bool
	convert := &cobra.Command{
		Use:   "convert IN OUT [--format ampN] [--force]",
		Short: "Convert a floppy image between Teledisk (.td0, read only), ImageDisk (.imd) and raw",
		Long: `Convert a floppy image: IN is a Teledisk (.td0), ImageDisk (.imd) or raw
image, OUT's extension picks what is written: .imd an ImageDisk file, any
other name a raw sector dump (lbplus reads Teledisk but never writes it).
A raw OUT takes the geometry of --format (amp1-amp4 or CxHxSxSIZE) or the
disk's own; a disk a raw image cannot hold (deleted marks, CRC errors,
sectors without data, tracks of other sizes) is refused with the first
such sector. --format also names the format of a raw IN whose size is
ambiguous. An existing OUT is replaced only with --force.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return floppyConvert(cmd.OutOrStdout(), args[0], args[1], format, force, time.Now())
		},
	}
	convert.Flags().StringVar(&format, "format", "", "geometry of a raw IN or OUT: amp1-amp4 or CxHxSxSIZE")
	convert.Flags().BoolVar(&force, "force", false, "replace an existing OUT")
	floppyCmd.AddCommand(create, info, convert)
	return floppyCmd
}

// addFloppyFlags adds --fd0 ... --fd3 to run's flags f.
func addFloppyFlags(f *pflag.FlagSet, o *runOptions) {
	for i := range o.fd {
		f.StringVar(&o.fd[i], fmt.Sprintf("fd%d", i), "",
			fmt.Sprintf("floppy drive %d: image `FILE[,OPTION...]` (.imd, .td0 or raw; make one with lbplus floppy create); options: format=amp1..amp4 (a raw image's format), ro, type=48tpi or 96tpi, convert=NEW.imd (a .td0: mount a new writable IMD copy)", i))
	}
}

// noteTeledisk tells, for each Teledisk image mounted as it is, that the
// drive sees it write-protected and how to write to a copy.
func noteTeledisk(w io.Writer, cfg emu.Config) {
	for _, f := range cfg.Floppies {
		if f.Convert == "" && f.Image != "" && fdimage.KindOf(f.Image) == fdimage.TD0 {
			fmt.Fprintf(w, "lbplus: drive %d: %s is a Teledisk image, mounted write-protected (%s)\n", f.Drive, f.Image, td0Hint)
		}
	}
}

// td0Hint says how to write to a Teledisk image's contents.
const td0Hint = "FILE,convert=NEW.imd mounts a writable IMD copy; lbplus never writes a .td0"

// applyFloppyFlags puts the --fdN images in cfg, replacing a machine file's
// drive N.
func applyFloppyFlags(cfg *emu.Config, fd [4]string) error {
	for i, arg := range fd {
		if arg == "" {
			continue
		}
		f, err := parseFloppyFlag(i, arg)
		if err != nil {
			return err
		}
		cfg.Floppies = slices.DeleteFunc(cfg.Floppies, func(x emu.Floppy) bool { return x.Drive == i })
		cfg.Floppies = append(cfg.Floppies, f)
	}
	return nil
}

// parseFloppyFlag reads FILE[,format=NAME][,ro][,type=NAME].
func parseFloppyFlag(drive int, arg string) (emu.Floppy, error) {
	parts := strings.Split(arg, ",")
	f := emu.Floppy{Drive: drive, Image: parts[0]}
	if f.Image == "" {
		return f, fmt.Errorf("--fd%d %q: no image file", drive, arg)
	}
	for _, p := range parts[1:] {
		k, v, _ := strings.Cut(p, "=")
		switch {
		case k == "ro" && v == "":
			f.ReadOnly = true
		case k == "format" && v != "":
			f.Format = v
		case k == "type" && v != "":
			f.Type = v
		case k == "convert" && v != "":
			f.Convert = v
		default:
			return f, fmt.Errorf("--fd%d %q: unknown option %q (format=amp1..amp4, ro, type=48tpi|96tpi, convert=NEW.imd)", drive, arg, p)
		}
	}
	return f, nil
}

func floppyCreate(w io.Writer, path, format string, interleave int, system systemFlags, now time.Time) error {
	if format == "" {
		return fmt.Errorf("%s: --format is required (%s or CxHxSxSIZE)", path, strings.Join(fdimage.FormatNames(), ", "))
	}
	f, err := fdimage.ParseFormat(format)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if interleave != 0 {
		if fdimage.KindOf(path) == fdimage.Raw && interleave != f.Interleave {
			return fmt.Errorf("%s: a raw image keeps no sector order (it is always the format's %d:1); make an .imd for interleave %d:1", path, f.Interleave, interleave)
		}
		f.Interleave = interleave
		if err := f.Validate(); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	header := "IMD 1.18: " + now.Format("02/01/2006 15:04:05")
	d := f.NewDisk(0xE5)
	d.Comment = fmt.Sprintf("lbplus floppy create --format %s\r\n", f.Name)
	if err := floppySystem(path, f, d, system); err != nil {
		return err
	}
	if err := fdimage.Create(path, f, d, header); err != nil {
		return err
	}
	if system.on {
		if err := sysdisk.PutFloppyPrograms(path, f); err != nil {
			os.Remove(path) // a system disk without its programs is not what was asked
			return err
		}
	}
	fmt.Fprintf(w, "%s: %s image, %s\n", path, fdimage.KindOf(path), f)
	return nil
}

// floppyConvert reads in (any kind) and writes its disk to out, whose
// kind is its extension's.
func floppyConvert(w io.Writer, in, out, format string, force bool, now time.Time) error {
	if _, err := os.Lstat(out); err == nil && !force {
		return fmt.Errorf("%s: already exists (--force replaces it)", out)
	}
	if a, err := os.Stat(in); err == nil {
		if b, err := os.Stat(out); err == nil && os.SameFile(a, b) {
			return fmt.Errorf("%s: IN and OUT are the same file", out)
		}
	}
	inFormat := ""
	if fdimage.KindOf(in) == fdimage.Raw {
		inFormat = format
	}
	im, err := fdimage.Open(in, fdimage.Options{Format: inFormat, ReadOnly: true})
	if err != nil {
		return err
	}
	d, kind, header := im.Disk(), im.Kind(), im.IMDHeader()
	im.Close()
	if kind == fdimage.Raw {
		header = "IMD 1.18: " + now.Format("02/01/2006 15:04:05")
	}
	var f fdimage.Format
	switch fdimage.KindOf(out) {
	case fdimage.TD0:
		return fmt.Errorf("%s: lbplus reads Teledisk images but never writes them: name an .imd or a raw OUT", out)
	case fdimage.Raw:
		if format != "" {
			if f, err = fdimage.ParseFormat(format); err != nil {
				return fmt.Errorf("%s: %w", out, err)
			}
		} else if f, err = fdimage.FormatOf(d); err != nil {
			return fmt.Errorf("%s: a raw image cannot hold %s: %w", out, in, err)
		}
	}
	write := fdimage.Create
	if force {
		write = fdimage.Replace
	}
	if err := write(out, f, d, header); err != nil {
		return err
	}
	sectors := 0
	for _, t := range d.Tracks {
		sectors += len(t.Sectors)
	}
	what := fmt.Sprintf("%s image", fdimage.KindOf(out))
	if fdimage.KindOf(out) == fdimage.Raw {
		what = "raw image, format " + f.Name
	}
	fmt.Fprintf(w, "%s: %s from %s (%s): %d cylinders x %d heads, %d sectors\n",
		out, what, in, kind, d.Cylinders, d.Heads, sectors)
	return nil
}

func floppyInfo(w io.Writer, path, format string) error {
	im, err := fdimage.Open(path, fdimage.Options{Format: format, ReadOnly: true})
	if err != nil {
		return err
	}
	defer im.Close()
	for _, l := range im.Describe() {
		fmt.Fprintln(w, l)
	}
	return nil
}

// floppyMenuCommands are the escape prompt's commands for the floppy
// drives: insert, eject, drives.
func floppyMenuCommands() []menuCommand {
	drive := func(args []string) (int, bool) {
		if len(args) < 1 || len(args[0]) != 1 || args[0][0] < '0' || args[0][0] > '3' {
			return 0, false
		}
		return int(args[0][0] - '0'), true
	}
	return []menuCommand{{name: "insert", short: "i", usage: "insert 0-3 FILE[,format=amp2][,ro][,convert=NEW.imd]",
		run: func(b *emu.Board, args []string) string {
			n, ok := drive(args)
			if !ok || len(args) != 2 {
				return "usage: insert 0-3 FILE[,format=amp2][,ro][,convert=NEW.imd]"
			}
			fl, err := parseFloppyFlag(n, args[1])
			if err != nil {
				return err.Error()
			}
			if err := b.InsertFloppy(n, fl.Image, fdimage.Options{Format: fl.Format, ReadOnly: fl.ReadOnly, Convert: fl.Convert}); err != nil {
				return err.Error()
			}
			switch {
			case fl.Convert != "":
				return fmt.Sprintf("drive %d: %s inserted (converted from %s)", n, fl.Convert, fl.Image)
			case fdimage.KindOf(fl.Image) == fdimage.TD0:
				return fmt.Sprintf("drive %d: %s inserted write-protected (Teledisk; %s)", n, fl.Image, td0Hint)
			}
			return fmt.Sprintf("drive %d: %s inserted", n, fl.Image)
		}}, {name: "eject", short: "e", usage: "eject 0-3",
		run: func(b *emu.Board, args []string) string {
			n, ok := drive(args)
			if !ok || len(args) != 1 {
				return "usage: eject 0-3"
			}
			if err := b.EjectFloppy(n); err != nil {
				return err.Error()
			}
			return fmt.Sprintf("drive %d: ejected", n)
		}}, {name: "drives", short: "d", usage: "drives",
		run: func(b *emu.Board, _ []string) string {
			var out []string
			for n := 0; n < 4; n++ {
				if d := b.FloppyDrive(n); d != nil {
					st := d.Snapshot(b.Now())
					m := st.Media
					if m == "" {
						m = "(empty)"
					}
					out = append(out, fmt.Sprintf("drive %d: %s, cylinder %d, motor %v", n, m, st.Cylinder, st.Motor))
				}
			}
			if len(out) == 0 {
				return "no floppy drives fitted"
			}
			return strings.Join(out, "\r\n")
		}}}
}
