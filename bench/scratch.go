package bench

import (
	"errors"
	"fmt"
	"os"
	"sync"
)

// ScratchEnv names the environment variable that chooses where benches put
// their throwaway images (--scratch overrides it).
const ScratchEnv = "LBPLUS_SCRATCH"

var scratchDirs struct {
	mu     sync.Mutex
	dirs   map[string]bool
	closed bool // RemoveAllScratch ran: no more scratch directories
}

// ScratchDir makes a temporary directory for a run's throwaway images
// (about 21 MB a disk) inside parent, or, when parent is "", inside
// $LBPLUS_SCRATCH, else a RAM file system (/dev/shm on Linux) because the
// disk and tape models fsync every acknowledged write for durability, which
// on a real disk costs more host time than the emulation itself, else the
// system's temporary directory. The directory is remembered until
// RemoveScratch, so RemoveAllScratch can clean up after an interrupt.
func ScratchDir(parent string) (string, error) {
	if parent == "" {
		parent = os.Getenv(ScratchEnv)
	}
	scratchDirs.mu.Lock() // made and listed at once, or refused after RemoveAllScratch
	defer scratchDirs.mu.Unlock()
	if scratchDirs.closed {
		return "", errors.New("scratch directory: interrupted")
	}
	var d string
	var err error
	if parent != "" {
		switch st, serr := os.Stat(parent); {
		case errors.Is(serr, os.ErrNotExist):
			return "", fmt.Errorf("scratch folder %s does not exist", parent)
		case serr != nil:
			return "", fmt.Errorf("scratch folder %s: %w", parent, serr)
		case !st.IsDir():
			return "", fmt.Errorf("scratch folder %s: not a folder", parent)
		}
		if d, err = os.MkdirTemp(parent, "lbplus-bench-"); err != nil {
			return "", fmt.Errorf("scratch directory: %w", err)
		}
	} else if st, serr := os.Stat("/dev/shm"); serr == nil && st.IsDir() {
		d, err = os.MkdirTemp("/dev/shm", "lbplus-bench-")
	}
	if d == "" {
		if d, err = os.MkdirTemp("", "lbplus-bench-"); err != nil {
			return "", fmt.Errorf("scratch directory: %w", err)
		}
	}
	if scratchDirs.dirs == nil {
		scratchDirs.dirs = map[string]bool{}
	}
	scratchDirs.dirs[d] = true
	return d, nil
}

// RemoveScratch deletes a directory made by ScratchDir.
func RemoveScratch(dir string) error {
	scratchDirs.mu.Lock()
	delete(scratchDirs.dirs, dir)
	scratchDirs.mu.Unlock()
	return os.RemoveAll(dir)
}

// RemoveAllScratch deletes every scratch directory not yet removed: called
// on an interrupt, while a run may still be writing into one (on Unix its
// open files stay valid until the process exits). A file the run makes
// while the directory is being emptied fails the removal, so it is tried
// again; once the directory is gone the run cannot make anything in it. No
// scratch directory can be made after it: the caller is about to exit.
func RemoveAllScratch() {
	scratchDirs.mu.Lock()
	defer scratchDirs.mu.Unlock()
	scratchDirs.closed = true
	for d := range scratchDirs.dirs {
		for try := 0; try < 100; try++ {
			if os.RemoveAll(d) == nil {
				break
			}
		}
		delete(scratchDirs.dirs, d)
	}
}
