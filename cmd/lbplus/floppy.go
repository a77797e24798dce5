package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/lbplus/lbplus/devices/fdimage"
)

// floppyCmd makes and inspects floppy images (ImageDisk .IMD or raw).
var floppyCmd = &cobra.Command{
	Use:   "floppy",
	Short: "Make and inspect floppy images (.imd or raw)",
}

func init() {
	var (
		format     string
		interleave int
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
			return floppyCreate(cmd.OutOrStdout(), args[0], format, interleave, time.Now())
		},
	}
	create.Flags().StringVar(&format, "format", "", "amp1, amp2, amp3, amp4 or CxHxSxSIZE (required)")
	create.Flags().IntVar(&interleave, "interleave", 0, "physical interleave (default: the format's, 2 for amp1-amp4)")
	info := &cobra.Command{
		Use:   "info FILE",
		Short: "Show a floppy image's format, geometry, sector map and bad sectors",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return floppyInfo(cmd.OutOrStdout(), args[0], format)
		},
	}
	info.Flags().StringVar(&format, "format", "", "format of a raw image whose size is ambiguous")
	floppyCmd.AddCommand(create, info)
	rootCmd.AddCommand(floppyCmd)
}

func floppyCreate(w io.Writer, path, format string, interleave int, now time.Time) error {
	if format == "" {
		return fmt.Errorf("%s: --format is required (%s or CxHxSxSIZE)", path, strings.Join(fdimage.FormatNames(), ", "))
	}
	f, err := fdimage.ParseFormat(format)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if interleave != 0 {
		f.Interleave = interleave
		if err := f.Validate(); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	header := "IMD 1.18: " + now.Format("02/01/2006 15:04:05")
	d := f.NewDisk(0xE5)
	d.Comment = fmt.Sprintf("lbplus floppy create --format %s\r\n", f.Name)
	if err := fdimage.Create(path, f, d, header); err != nil {
		return err
	}
	fmt.Fprintf(w, "%s: %s image, %s\n", path, fdimage.KindOf(path), f)
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
