// Package golden compares what a test produced with a file it keeps under
// testdata/, and rewrites that file when the test binary runs with -update
// (go test ./pkg -run TestX -update), so every package's golden files
// work the same way.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ with what the tests produce")

// Update reports whether the tests run with -update, for golden data that
// Equal does not compare (images).
func Update() bool { return *update }

// Equal checks got against testdata/name, as text so that a difference
// shows line by line. With -update it first writes got there, creating the
// folders it needs.
func Equal(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test with -update to create %s", path)
	assert.Equal(t, string(want), string(got), "differs from %s (go test -update rewrites it)", path)
}
