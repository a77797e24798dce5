package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goMinor turns "1.24", "1.24.0" or "go1.24.3" into its minor number.
func goMinor(t *testing.T, v string) int {
	t.Helper()
	m := regexp.MustCompile(`^(?:go)?1\.(\d+)`).FindStringSubmatch(v)
	require.NotNil(t, m, "Go version %q", v)
	n, err := strconv.Atoi(m[1])
	require.NoError(t, err)
	return n
}

// TestGoVersionFloor: go.mod's go directive is the oldest Go that builds
// lbplus, which is what its dependencies need (go vet's stdversion check
// keeps lbplus's own code from using anything newer); the Makefile checks
// for that version and the README names it.
func TestGoVersionFloor(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(mod)
	require.NotNil(t, m)
	directive := goMinor(t, string(m[1]))

	out, err := exec.Command("go", "list", "-m", "-f", "{{.Path}} {{.GoVersion}}", "all").Output()
	require.NoError(t, err)
	need, by := 0, ""
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] != "github.com/lbplus/lbplus" {
			if n := goMinor(t, f[1]); n > need {
				need, by = n, f[0]
			}
		}
	}
	assert.Equal(t, need, directive, "go.mod says 1.%d; the dependencies need 1.%d (%s)", directive, need, by)

	mk, err := os.ReadFile("../../Makefile")
	require.NoError(t, err)
	mm := regexp.MustCompile(`(?m)^GO_MIN\s*:=\s*(\S+)$`).FindSubmatch(mk)
	require.NotNil(t, mm)
	assert.Equal(t, directive, goMinor(t, string(mm[1])), "the Makefile's GO_MIN")
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	assert.Contains(t, string(readme), "Go 1."+strconv.Itoa(directive)+" or newer")
}

// TestMakeChecksGoVersion: make refuses a Go older than GO_MIN, or none,
// with a message saying what is needed and how to get it.
func TestMakeChecksGoVersion(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	dir := t.TempDir()
	fake := func(name, version string) string {
		p := filepath.Join(dir, name)
		script := "#!/bin/sh\ncase \"$1\" in\nenv) echo " + version + ";;\nversion) echo go version " + version + " linux/amd64;;\nesac\n"
		require.NoError(t, os.WriteFile(p, []byte(script), 0o755))
		return p
	}
	for _, c := range []struct {
		gobin string
		ok    bool
		want  string
	}{
		{fake("go119", "go1.19.8"), false, "lbplus needs Go 1.24 or newer; '" + filepath.Join(dir, "go119") + "' is go version go1.19.8"},
		{fake("go123", "go1.23.4"), false, "GOTOOLCHAIN=auto"},
		{fake("go124", "go1.24.0"), true, "using Go 1.24"},
		{fake("go130", "go1.30.1"), true, "using Go 1.30"},
		{filepath.Join(dir, "nogo"), false, "there is no '" + filepath.Join(dir, "nogo") + "' on PATH"},
	} {
		out, err := exec.Command("make", "-s", "-C", "../..", "goversion", "GO="+c.gobin).CombinedOutput()
		if c.ok {
			assert.NoError(t, err, string(out))
		} else {
			assert.Error(t, err, string(out))
		}
		assert.Contains(t, string(out), c.want)
	}
}

// TestMakeFuzzRunsEveryTarget: make fuzz names every fuzz target of the
// repository with its package.
func TestMakeFuzzRunsEveryTarget(t *testing.T) {
	mk, err := os.ReadFile("../../Makefile")
	require.NoError(t, err)
	re := regexp.MustCompile(`(?m)^func (Fuzz\w+)\(`)
	n := 0
	require.NoError(t, filepath.WalkDir("../..", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range re.FindAllSubmatch(src, -1) {
			pkg := "./" + filepath.ToSlash(filepath.Dir(strings.TrimPrefix(p, "../../")))
			assert.Contains(t, string(mk), "$(GO) test "+pkg+" -run XXX -fuzz "+string(m[1])+" ", "make fuzz runs %s %s", pkg, m[1])
			n++
		}
		return nil
	}))
	assert.GreaterOrEqual(t, n, 10)
}
