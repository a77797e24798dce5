package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lbplus/lbplus/devices/fdimage"
	"github.com/lbplus/lbplus/roms/cpm"
	"github.com/lbplus/lbplus/roms/cpmbios"
	"github.com/lbplus/lbplus/sysdisk"
)

func newSysgenCmd() *cobra.Command {
	var o struct {
		ccpBDOS string
		burst   string
		format  string
	}
	cmd := &cobra.Command{
		Use:   "sysgen [--ccp-bdos FILE] IMAGE",
		Short: "Write the CP/M system (boot loader, CCP+BDOS, BIOS) to a system disk",
		Long: `Rewrite the system of an lbplus CP/M hard disk (one made with lbplus disk
create --system) or the system tracks of an Ampro-format floppy image (.imd
or raw; --format amp2 for a raw image whose size is ambiguous): the boot
loader, the CCP and BDOS, and the BIOS. Files on the disk stay.
--ccp-bdos FILE installs your own CCP+BDOS instead of lbplus's: 5632 bytes
(CCP 0800h + BDOS 0E00h) assembled for the CCP at D400h, BDOS at DC00h
(DR CP/M 2.2's 60K layout; docs/CPM.md), e.g. Digital Research's CP/M 2.2
or ZCPR/ZRDOS. --transfer byte|burst chooses how the BIOS moves SCSI data
(default: keep the disk's setting).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !sysdisk.IsHD(args[0]) {
				if o.burst != "" {
					return fmt.Errorf("%s: --transfer is for a hard disk (a floppy's BIOS takes the mode from the hard disk)", args[0])
				}
				return sysgenFloppy(cmd.OutOrStdout(), args[0], o.ccpBDOS, o.format)
			}
			return sysgen(cmd.OutOrStdout(), args[0], o.ccpBDOS, o.burst)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.ccpBDOS, "ccp-bdos", "", "CCP+BDOS image `FILE` (5632 bytes for CCP D400h) instead of lbplus's")
	f.StringVar(&o.burst, "transfer", "", "SCSI data transfers of the BIOS: byte or burst (default: as the disk has it)")
	f.StringVar(&o.format, "format", "", "floppy: the format of a raw image whose size is ambiguous (amp2 or amp3)")
	return cmd
}

// ccpBDOSImage is the CCP+BDOS to install: the file's, or ours.
func ccpBDOSImage(file string) ([]byte, error) {
	if file == "" {
		return cpm.System()
	}
	b, err := readInput(file, 1<<20)
	if err != nil {
		return nil, fmt.Errorf("--ccp-bdos %w", err)
	}
	if len(b) != cpm.SysSize {
		return nil, fmt.Errorf("--ccp-bdos %s: %d bytes; want %d (CCP %04Xh + BDOS %04Xh bytes for CCP at %04Xh, BDOS at %04Xh)",
			file, len(b), cpm.SysSize, cpm.CCPSize, cpm.BDOSSize, cpm.CCPBase, cpm.BDOSBase)
	}
	return b, nil
}

// parseBIOSTransfer reads --transfer: byte, burst, or "" (keep).
func parseBIOSTransfer(s string) (set, burst bool, err error) {
	switch s {
	case "":
		return false, false, nil
	case "byte":
		return true, false, nil
	case "burst":
		return true, true, nil
	}
	return false, false, fmt.Errorf("--transfer %q: want byte or burst", s)
}

func sysgen(w io.Writer, path, ccpFile, transfer string) error {
	set, burst, err := parseBIOSTransfer(transfer)
	if err != nil {
		return err
	}
	sys, err := ccpBDOSImage(ccpFile)
	if err != nil {
		return err
	}
	cfg, err := sysdisk.SysgenHD(path, sys, set, burst)
	if err != nil {
		return err
	}
	return systemInfo(w, path, cfg, ccpFile)
}

// installSystem puts the system on a freshly made disk image and empties
// every partition's directory (sysdisk.InstallHD), with --ccp-bdos's
// CCP+BDOS and --transfer's mode.
func installSystem(path, ccpFile, transfer string) (cpmbios.HDConfig, error) {
	_, burst, err := parseBIOSTransfer(transfer)
	if err != nil {
		return cpmbios.HDConfig{}, err
	}
	sys, err := ccpBDOSImage(ccpFile)
	if err != nil {
		return cpmbios.HDConfig{}, err
	}
	return sysdisk.InstallHD(path, sys, burst)
}

func systemInfo(w io.Writer, path string, cfg cpmbios.HDConfig, ccpFile string) error {
	what := "lbplus CCP+BDOS"
	if ccpFile != "" {
		what = "CCP+BDOS from " + ccpFile
	}
	mode := "byte by byte"
	if cfg.Burst {
		mode = "256-byte bursts"
	}
	_, err := fmt.Fprintf(w, "%s: CP/M 2.2 system (%s, lbplus BIOS, SCSI %s), %d partitions of 4 MB: A: to %c: (cpmtools -f lbplus-hd0 .. lbplus-hd%d)\n",
		path, what, mode, cfg.Partitions, 'A'+cfg.Partitions-1, cfg.Partitions-1)
	return err
}

// systemFlags are disk create's --system options.
type systemFlags struct {
	on       bool
	ccpBDOS  string
	transfer string
}

func addSystemFlags(f *pflag.FlagSet, s *systemFlags) {
	f.BoolVar(&s.on, "system", false, "make a bootable CP/M system disk (4 MB partitions A:, B:, ...)")
	f.StringVar(&s.ccpBDOS, "ccp-bdos", "", "with --system: CCP+BDOS image `FILE` instead of lbplus's (see sysgen)")
	f.StringVar(&s.transfer, "transfer", "byte", "with --system: SCSI data transfers of the BIOS, byte or burst")
}

// addFloppySystemFlags are floppy create's --system options: a floppy has
// no SCSI transfer mode of its own (the BIOS takes a hard disk's from the
// hard disk), so there is no --transfer.
func addFloppySystemFlags(f *pflag.FlagSet, s *systemFlags) {
	f.BoolVar(&s.on, "system", false, "make a bootable CP/M system floppy (boot sector, CCP+BDOS and BIOS on its two system tracks)")
	f.StringVar(&s.ccpBDOS, "ccp-bdos", "", "with --system: CCP+BDOS image `FILE` instead of lbplus's (see sysgen)")
	s.transfer = "byte"
}

// check refuses, before an image is made, --system options that are
// wrong or given without --system.
func (s systemFlags) check(cmd *cobra.Command) error {
	if !s.on {
		for _, name := range []string{"ccp-bdos", "transfer"} {
			if cmd.Flags().Changed(name) {
				return fmt.Errorf("--%s: only with --system", name)
			}
		}
		return nil
	}
	if _, _, err := parseBIOSTransfer(s.transfer); err != nil {
		return err
	}
	_, err := ccpBDOSImage(s.ccpBDOS)
	return err
}

// diskCreateSystem installs the system on the image disk create just made.
func diskCreateSystem(w io.Writer, path string, unformatted bool, s systemFlags) error {
	if unformatted {
		return fmt.Errorf("%s: --system needs a formatted drive (drop --unformatted)", path)
	}
	cfg, err := installSystem(path, s.ccpBDOS, s.transfer)
	if err != nil {
		return err
	}
	if err := sysdisk.PutHDPrograms(path); err != nil {
		return err
	}
	return systemInfo(w, path, cfg, s.ccpBDOS)
}

// floppySystem puts the system on a new floppy's disk when --system asks.
func floppySystem(path string, f fdimage.Format, d *fdimage.Disk, system systemFlags) error {
	if !system.on {
		return nil
	}
	sys, err := ccpBDOSImage(system.ccpBDOS)
	if err != nil {
		return err
	}
	if err := cpmbios.InstallFloppy(d, f, sys); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// sysgenFloppy writes the system tracks of a floppy image.
func sysgenFloppy(w io.Writer, path, ccpFile, format string) error {
	sys, err := ccpBDOSImage(ccpFile)
	if err != nil {
		return err
	}
	if err := sysdisk.SysgenFloppy(path, format, sys); err != nil {
		return err
	}
	what := "lbplus CCP+BDOS"
	if ccpFile != "" {
		what = "CCP+BDOS from " + ccpFile
	}
	_, err = fmt.Fprintf(w, "%s: CP/M 2.2 system tracks written (%s, lbplus BIOS)\n", path, what)
	return err
}
