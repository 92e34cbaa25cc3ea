//go:build unix

package fingerprint

import (
	"os"
	"syscall"
)

// linkedElsewhere reports a regular file with more than one hard link.
func linkedElsewhere(d os.DirEntry) bool {
	fi, err := d.Info()
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Nlink > 1
}
