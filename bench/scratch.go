package bench

import "os"

// ScratchDir makes a temporary directory for a run's throwaway images. It
// prefers a RAM file system (/dev/shm on Linux) because the disk and tape
// models fsync every acknowledged write for durability, which on a real
// disk costs more host time than the emulation itself. The caller removes
// the directory.
func ScratchDir() (string, error) {
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "lbplus-bench-"); err == nil {
			return d, nil
		}
	}
	return os.MkdirTemp("", "lbplus-bench-")
}
