package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lbplus/lbplus/cpmfs"
	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/sysdisk"
)

// cpmOptions are the flags of the cpm subcommands.
type cpmOptions struct {
	part   int
	format string
	user   int
	force  bool
}

// newCPMCmd moves files in and out of CP/M disks: a partition of an lbplus
// hard disk or an Ampro-format floppy image.
func newCPMCmd() *cobra.Command {
	var o cpmOptions
	cpmCmd := &cobra.Command{
		Use:   "cpm",
		Short: "List, copy in, copy out and delete files on CP/M disk images",
		Long: `Files on a CP/M disk image: a partition of an lbplus system hard disk
(--part N, drive A: is partition 0 when it boots from the disk) or an
Ampro-format floppy (.imd or raw; --format amp2 for a raw image whose size
is ambiguous). cpmtools reads the same disks (docs/CPM.md). Do not use it
on an image lbplus run has open.`,
	}
	ls := &cobra.Command{
		Use:   "ls IMAGE",
		Short: "List the files (user, name, size)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.list(cmd.OutOrStdout(), args[0])
		},
	}
	get := &cobra.Command{
		Use:   "get [--force] IMAGE [U:]NAME [FILE]",
		Short: "Copy a file out of the image (to FILE, default NAME in lower case; never over a file)",
		Args:  cobra.RangeArgs(2, 3),
		RunE: func(cmd *cobra.Command, args []string) error {
			out := ""
			if len(args) == 3 {
				out = args[2]
			}
			return o.get(cmd.OutOrStdout(), args[0], args[1], out)
		},
	}
	put := &cobra.Command{
		Use:   "put [--user U] IMAGE FILE...",
		Short: "Copy files into the image (replacing files of the same name)",
		Args:  cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.put(cmd.OutOrStdout(), args[0], args[1:])
		},
	}
	rm := &cobra.Command{
		Use:   "rm IMAGE [U:]NAME...",
		Short: "Delete files from the image",
		Args:  cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.remove(args[0], args[1:])
		},
	}
	for _, c := range []*cobra.Command{ls, get, put, rm} {
		c.Flags().IntVar(&o.part, "part", 0, "hard disk partition (0-4)")
		c.Flags().StringVar(&o.format, "format", "", "floppy: the format of an ambiguous raw image (amp2 or amp3)")
		cpmCmd.AddCommand(c)
	}
	put.Flags().IntVar(&o.user, "user", 0, "user area (0-15)")
	get.Flags().BoolVar(&o.force, "force", false, "replace FILE if it exists")
	return cpmCmd
}

// open opens the file system of an image (--part of a hard disk, a
// floppy of --format); done closes the image.
func (o cpmOptions) open(path string, readOnly bool) (fs *cpmfs.FS, done func() error, err error) {
	if sysdisk.IsHD(path) {
		f, err := sysdisk.OpenHD(path, readOnly)
		if err != nil {
			return nil, nil, err
		}
		fs, err := cpmbios.PartitionFS(f, o.part)
		if err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		return fs, f.Close, nil
	}
	im, err := fdimage.Open(path, fdimage.Options{Format: o.format, ReadOnly: readOnly})
	if err != nil {
		return nil, nil, err
	}
	fs, err = cpmbios.FloppyFS(im)
	if err != nil {
		im.Close()
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return fs, im.Close, nil
}

// userName splits "U:NAME" (user 0 without a prefix).
func userName(arg string) (int, string, error) {
	u, n, ok := strings.Cut(arg, ":")
	if !ok {
		return 0, arg, nil
	}
	user, err := strconv.Atoi(u)
	if err != nil || user < 0 || user > 15 {
		return 0, "", fmt.Errorf("%q: the user before ':' is a number 0-15", arg)
	}
	return user, n, nil
}

// list prints the files of the image at path.
func (o cpmOptions) list(w io.Writer, path string) error {
	fs, done, err := o.open(path, true)
	if err != nil {
		return err
	}
	defer done()
	for _, f := range fs.List() {
		fmt.Fprintf(w, "%2d:%-12s %8d\n", f.User, f.Name, f.Size)
	}
	return nil
}

// get copies [U:]NAME out of the image to the host file out (never over a
// file without --force).
func (o cpmOptions) get(w io.Writer, path, arg, out string) error {
	user, name, err := userName(arg)
	if err != nil {
		return err
	}
	if out == "" {
		out = strings.ToLower(name)
	}
	if err := checkOutputs([]string{path}, outputFile{"FILE", out}); err != nil {
		return err
	}
	fs, done, err := o.open(path, true)
	if err != nil {
		return err
	}
	defer done()
	data, err := fs.Read(user, name)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := writeHostFile(out, o.force, func(f io.Writer) error { _, err := f.Write(data); return err }); err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%d:%s -> %s (%d bytes)\n", user, strings.ToUpper(name), out, len(data))
	return err
}

// cpmMaxFile is the largest file CP/M 2.2 can hold: 65536 records of 128
// bytes (a record number is 16 bits: R2 must be 0, docs/CPM.md); a
// larger input cannot be copied in.
const cpmMaxFile = 65536 * 128

// put copies host files into the image, to user area --user.
func (o cpmOptions) put(w io.Writer, path string, files []string) error {
	user := o.user
	// Every file is read before the image is opened, so a bad one leaves
	// the image as it was.
	datas := make([][]byte, len(files))
	for i, file := range files {
		if st, err := os.Stat(file); err == nil && st.Mode().IsRegular() && st.Size() > cpmMaxFile {
			return fmt.Errorf("%s: %d bytes; a CP/M 2.2 file holds at most %d", file, st.Size(), cpmMaxFile)
		}
		data, err := readInput(file, cpmMaxFile)
		if err != nil {
			return err
		}
		datas[i] = data
	}
	fs, done, err := o.open(path, false)
	if err != nil {
		return err
	}
	for i, file := range files {
		data := datas[i]
		name := strings.ToUpper(filepath.Base(file))
		if err := fs.Write(user, name, data); err != nil {
			done()
			return fmt.Errorf("%s: %w", path, err)
		}
		fmt.Fprintf(w, "%s -> %d:%s (%d bytes)\n", file, user, name, len(data))
	}
	return done()
}

// remove deletes [U:]NAME... from the image.
func (o cpmOptions) remove(path string, args []string) error {
	fs, done, err := o.open(path, false)
	if err != nil {
		return err
	}
	for _, arg := range args {
		user, name, err := userName(arg)
		if err == nil {
			err = fs.Delete(user, name)
		}
		if err != nil {
			done()
			if errors.Is(err, cpmfs.ErrNotFound) {
				return fmt.Errorf("%s: %w", path, err)
			}
			return err
		}
	}
	return done()
}
