package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// DirName is the name of autorag's directory inside the root.
const DirName = ".autorag"

// Layout names the files and directories under <root>/.autorag.
type Layout struct {
	Root string // the corpus root (absolute)
	Dir  string // <root>/.autorag
}

// NewLayout returns the layout for root, which is made absolute.
func NewLayout(root string) (Layout, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return Layout{}, fmt.Errorf("resolve root %s: %w", root, err)
	}
	return Layout{Root: abs, Dir: filepath.Join(abs, DirName)}, nil
}

// LockPath is the refresh lock file.
func (l Layout) LockPath() string { return filepath.Join(l.Dir, "refresh.lock") }

// SidecarPath is the commit point, fingerprint.json.
func (l Layout) SidecarPath() string { return filepath.Join(l.Dir, "fingerprint.json") }

// ConfigPath is the optional user configuration.
func (l Layout) ConfigPath() string { return filepath.Join(l.Dir, "config.toml") }

// MirrorDir holds the manifest and the mirror objects.
func (l Layout) MirrorDir() string { return filepath.Join(l.Dir, "mirror") }

// ManifestPath is the mirror manifest.
func (l Layout) ManifestPath() string { return filepath.Join(l.MirrorDir(), "manifest.bin") }

// ObjectsDir is the content-addressed store of normalized texts.
func (l Layout) ObjectsDir() string { return filepath.Join(l.MirrorDir(), "objects") }

// IndexDir holds the generations.
func (l Layout) IndexDir() string { return filepath.Join(l.Dir, "index") }

// CacheDir holds the embedding and query caches.
func (l Layout) CacheDir() string { return filepath.Join(l.Dir, "cache") }

// GenDir is the directory of one generation.
func (l Layout) GenDir(gen string) string { return filepath.Join(l.IndexDir(), gen) }

// genName formats generation number n.
func genName(n uint64) string { return fmt.Sprintf("%09d", n) }

// parseGen returns the number of a generation directory name.
func parseGen(name string) (uint64, bool) {
	if len(name) != 9 {
		return 0, false
	}
	n, err := strconv.ParseUint(name, 10, 64)
	return n, err == nil
}

// listGenerations returns the generation directory names, oldest first:
// os.ReadDir sorts by name, and the names have a fixed width.
func (l Layout) listGenerations() ([]string, error) {
	ents, err := os.ReadDir(l.IndexDir())
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list generations: %w", err)
	}
	var gens []string
	for _, e := range ents {
		if _, ok := parseGen(e.Name()); ok && e.IsDir() {
			gens = append(gens, e.Name())
		}
	}
	return gens, nil
}

// nextGeneration returns a name greater than every existing generation and
// than current.
func (l Layout) nextGeneration(current string) (string, error) {
	gens, err := l.listGenerations()
	if err != nil {
		return "", err
	}
	var max uint64
	if n, ok := parseGen(current); ok {
		max = n
	}
	for _, g := range gens {
		if n, _ := parseGen(g); n > max {
			max = n
		}
	}
	return genName(max + 1), nil
}
