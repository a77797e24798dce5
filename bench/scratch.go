package bench

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
)

// ScratchEnv names the environment variable that chooses where benches put
// their throwaway images (--scratch overrides it).
const ScratchEnv = "LBPLUS_SCRATCH"

var scratchDirs struct {
	mu     sync.Mutex
	dirs   map[string]*os.File // each directory's lock, held while it lives
	closed bool                // RemoveAllScratch ran: no more scratch directories
}

// scratchPrefix begins the name of every scratch directory, and
// scratchLock names the file in it that its process holds locked (flock)
// for as long as it lives: a directory whose lock can be taken belongs to
// a process that is gone (killed with SIGKILL, or a crash), which could
// not clean up after itself.
const (
	scratchPrefix = "lbplus-bench-"
	scratchLock   = ".owner"
)

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
		if d, err = os.MkdirTemp(parent, scratchPrefix); err != nil {
			return "", fmt.Errorf("scratch directory: %w", err)
		}
	} else if st, serr := os.Stat("/dev/shm"); serr == nil && st.IsDir() {
		d, err = os.MkdirTemp("/dev/shm", scratchPrefix)
	}
	if d == "" {
		if d, err = os.MkdirTemp("", scratchPrefix); err != nil {
			return "", fmt.Errorf("scratch directory: %w", err)
		}
	}
	lock, err := os.OpenFile(filepath.Join(d, scratchLock), os.O_CREATE|os.O_RDWR, 0o600)
	if err == nil {
		err = syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	}
	if err != nil {
		if lock != nil {
			lock.Close()
		}
		os.RemoveAll(d)
		return "", fmt.Errorf("scratch directory %s: %w", d, err)
	}
	if scratchDirs.dirs == nil {
		scratchDirs.dirs = map[string]*os.File{}
	}
	scratchDirs.dirs[d] = lock
	removeOrphans(filepath.Dir(d))
	return d, nil
}

// removeOrphans deletes the scratch directories in parent whose process
// is gone: their lock can be taken. A directory being made right now has
// no lock file yet and is left alone, and so is one without a lock file
// at all (another program's, or an older lbplus's).
func removeOrphans(parent string) {
	ents, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), scratchPrefix) {
			continue
		}
		d := filepath.Join(parent, e.Name())
		if _, mine := scratchDirs.dirs[d]; mine {
			continue
		}
		f, err := os.OpenFile(filepath.Join(d, scratchLock), os.O_RDWR, 0)
		if err != nil {
			continue
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			os.RemoveAll(d)
		}
		f.Close()
	}
}

// RemoveScratch deletes a directory made by ScratchDir.
func RemoveScratch(dir string) error {
	scratchDirs.mu.Lock()
	lock := scratchDirs.dirs[dir]
	delete(scratchDirs.dirs, dir)
	scratchDirs.mu.Unlock()
	err := os.RemoveAll(dir)
	if lock != nil {
		lock.Close()
	}
	return err
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
	for d, lock := range scratchDirs.dirs {
		for try := 0; try < 100; try++ {
			if os.RemoveAll(d) == nil {
				break
			}
		}
		lock.Close()
		delete(scratchDirs.dirs, d)
	}
}
