package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// version describes this build for `lbplus --version`: the module version
// (devel for a build from a work tree), the commit it was built from and
// whether the tree had changes, and the Go release that built it.
func version() string {
	v, commit, when, dirty := "devel", "", "", false
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	out := v
	if commit != "" {
		out += fmt.Sprintf(", commit %.12s", commit)
		if dirty {
			out += " with local changes"
		}
		if when != "" {
			out += " of " + when
		}
	}
	return out + ", " + runtime.Version()
}
