package mcd403

// The package's own test helpers for its external tests (package
// mcd403_test, which builds whole machines and so cannot be inside).
var (
	RW      = rw
	Pattern = pattern
)
