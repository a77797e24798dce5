package scsidev

import (
	"fmt"
	"strconv"
	"strings"
)

// The command-line grammar of a device (`lbplus run --scsi`, --hd0):
// ID=TYPE[,OPTION...]:FILE[,FILE] names any type; FILE[,OPTION...] adds
// the options after an image. The options are those of Spec a command
// line can set: ro, geometry=NAME and interleave=N. Errors quote what was
// given and leave the flag's name to the caller.

// ParseSpec reads ID=TYPE[,OPTION...]:FILE[,FILE]: the ID (0-7), the type's
// name (not checked here: the board's registry knows the types), the
// options and the images, LUN 0 first.
func ParseSpec(arg string) (Spec, error) {
	var spec Spec
	bad := func(why string) error {
		return fmt.Errorf("%q: %s (want ID=TYPE:FILE, e.g. 0=acb4000:hd0.img)", arg, why)
	}
	id, rest, ok := strings.Cut(arg, "=")
	if !ok {
		return spec, bad("no ID=")
	}
	n, err := strconv.Atoi(id)
	if err != nil || n < 0 || n > 7 {
		return spec, bad("the ID is a number 0-7")
	}
	kind, files, ok := strings.Cut(rest, ":")
	if !ok || files == "" {
		return spec, bad("no image FILE after the type")
	}
	opts := strings.Split(kind, ",")
	spec = Spec{ID: n, Type: opts[0], Images: strings.Split(files, ",")}
	for _, o := range opts[1:] {
		if err := spec.SetOption(o); err != nil {
			return spec, bad(err.Error())
		}
	}
	return spec, nil
}

// ParseImage reads FILE[,OPTION...] into spec's first image and options.
// Only a trailing run of options is taken, so a file name with a comma in
// it still works.
func ParseImage(spec Spec, v string) (Spec, error) {
	path := v
	var opts []string
	for {
		i := strings.LastIndexByte(path, ',')
		if i < 0 {
			break
		}
		o := path[i+1:]
		if k, _, _ := strings.Cut(o, "="); k != "ro" && k != "geometry" && k != "interleave" {
			break
		}
		opts, path = append(opts, o), path[:i]
	}
	spec.Images = []string{path}
	for _, o := range opts {
		if err := spec.SetOption(o); err != nil {
			return spec, err
		}
	}
	return spec, nil
}

// SplitReadOnly splits FILE[,ro]: ro attaches the image read-only (the
// drive reports write protection).
func SplitReadOnly(v string) (path string, readOnly bool) {
	if p, ok := strings.CutSuffix(v, ",ro"); ok {
		return p, true
	}
	return v, false
}

// SetOption applies one option of the grammar: ro, geometry=NAME or
// interleave=N.
func (s *Spec) SetOption(o string) error {
	switch k, v, _ := strings.Cut(o, "="); k {
	case "ro":
		s.ReadOnly = true
	case "geometry":
		s.Geometry = v
	case "interleave":
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fmt.Errorf("interleave %q: want a number from 1 (1:1) to the sectors per track - 1", v)
		}
		s.Interleave = n
	default:
		return fmt.Errorf("unknown option %q (ro, geometry=NAME, interleave=N)", o)
	}
	return nil
}
