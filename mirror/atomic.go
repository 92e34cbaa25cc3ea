package mirror

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/autorag/autorag/fingerprint"
)

// tempPrefix starts the name of every temporary file written here (the
// same prefix as fingerprint.WriteFileAtomic's). Store.Collect removes such
// files; nothing ever reads them.
const tempPrefix = fingerprint.TempPrefix

// Pack file names: packPrefix, 16 lowercase hex digits, packSuffix. Only
// files so named are read; a pack is given its name once it is complete.
const (
	packPrefix  = "pack-"
	packSuffix  = ".pack"
	packNameLen = len(packPrefix) + 16 + len(packSuffix)
)

// createPackTemp creates the temporary file a pack is written to, open for
// reading and writing so that its objects can be read back before it is
// published.
func createPackTemp(dir string) (*fingerprint.AtomicFile, error) {
	f, err := fingerprint.CreateAtomic(dir, packPrefix, fingerprint.FilePerm)
	if err != nil {
		return nil, fmt.Errorf("create pack: %w", err)
	}
	return f, nil
}

// publishPack makes the complete pack written to f durable under a new
// final name in dir (fingerprint.AtomicFile.CommitOpen: fsync, rename,
// fsync of dir) and leaves f open for reading. It returns the final name,
// also when only the directory fsync failed (the pack is in place). Only
// one process writes a store at a time (the caller holds the refresh lock),
// so checking that the name is free before the rename is enough to never
// replace another pack.
func publishPack(f *fingerprint.AtomicFile, dir string) (string, error) {
	name, err := freePackName(dir)
	if err != nil {
		f.Abort()
		return "", err
	}
	if err := f.CommitOpen(filepath.Join(dir, name)); err != nil {
		if fingerprint.Renamed(err) {
			return name, fmt.Errorf("publish pack: %w", err)
		}
		return "", fmt.Errorf("publish pack: %w", err)
	}
	return name, nil
}

// freePackName picks a random pack name not yet used in dir.
func freePackName(dir string) (string, error) {
	for range 100 {
		name := fmt.Sprintf("%s%016x%s", packPrefix, rand.Uint64(), packSuffix)
		_, err := os.Lstat(filepath.Join(dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			return name, nil
		}
		if err != nil {
			return "", fmt.Errorf("publish pack: %w", err)
		}
	}
	return "", fmt.Errorf("publish pack: no free name in %s", dir)
}

// isPackName reports whether name is a final pack name.
func isPackName(name string) bool {
	if len(name) != packNameLen || !strings.HasPrefix(name, packPrefix) || !strings.HasSuffix(name, packSuffix) {
		return false
	}
	for _, c := range []byte(name[len(packPrefix) : len(name)-len(packSuffix)]) {
		if !isLowerHex(c) {
			return false
		}
	}
	return true
}

// isFanout reports whether name is a fan-out directory of the old
// one-file-per-object layout (two lowercase hex digits).
func isFanout(name string) bool {
	return len(name) == 2 && isLowerHex(name[0]) && isLowerHex(name[1])
}

func isLowerHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' }
