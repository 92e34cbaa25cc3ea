package layout

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/autorag/autorag/fingerprint"
)

// DirName is the name of autorag's directory inside the root.
const DirName = ".autorag"

// Layout names the files and directories under <root>/.autorag.
type Layout struct {
	Root string // the corpus root (absolute)
	Dir  string // <root>/.autorag
	pin  os.FileInfo
}

// New returns the layout for root, which is made absolute, and pins the
// directory root names now (CheckRoot).
func New(root string) (Layout, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return Layout{}, fmt.Errorf("resolve root %s: %w", root, err)
	}
	pin, _ := os.Stat(abs) // a root not there yet is pinned by nothing
	return Layout{Root: abs, Dir: filepath.Join(abs, DirName), pin: pin}, nil
}

// ErrRootReplaced reports a root that no longer names the directory it
// named when the layout was made: moved or removed, or replaced by
// another (through a symlink, say) under a long-running process.
var ErrRootReplaced = errors.New("the root is no longer the directory this process started with (moved, removed or replaced); start it again to use what is there now")

// CheckRoot fails with ErrRootReplaced when the root's path no longer
// leads to the directory pinned by New (device and inode), so that a
// long-running process never follows a swap into another directory.
func (l Layout) CheckRoot() error {
	if l.pin == nil {
		return nil
	}
	if fi, err := os.Stat(l.Root); err != nil || !os.SameFile(fi, l.pin) {
		return fmt.Errorf("root %s: %w", l.Root, ErrRootReplaced)
	}
	return nil
}

// LockPath is the refresh lock file.
func (l Layout) LockPath() string { return filepath.Join(l.Dir, "refresh.lock") }

// SidecarPath is the commit point, fingerprint.json.
func (l Layout) SidecarPath() string { return filepath.Join(l.Dir, "fingerprint.json") }

// UpgradePath is the record of a staged embedding in progress (package
// upgrade writes it; index reset removes it, and eviction from the
// embedding cache keeps the vectors of the embedder it names).
func (l Layout) UpgradePath() string { return filepath.Join(l.Dir, "upgrade.json") }

// ConfigPath is the optional user configuration.
func (l Layout) ConfigPath() string { return filepath.Join(l.Dir, "config.toml") }

// MirrorDir holds the manifest and the mirror objects.
func (l Layout) MirrorDir() string { return filepath.Join(l.Dir, "mirror") }

// FailuresPath is the parse-failure memo (mirror.FailMemo), beside the manifest.
func (l Layout) FailuresPath() string { return filepath.Join(l.MirrorDir(), "failed.json") }

// ManifestPath is the mirror manifest.
func (l Layout) ManifestPath() string { return filepath.Join(l.MirrorDir(), "manifest.bin") }

// ObjectsDir is the content-addressed store of normalized texts.
func (l Layout) ObjectsDir() string { return filepath.Join(l.MirrorDir(), "objects") }

// IndexDir holds the generations.
func (l Layout) IndexDir() string { return filepath.Join(l.Dir, "index") }

// CacheDir holds the embedding and query caches.
func (l Layout) CacheDir() string { return filepath.Join(l.Dir, "cache") }

// CounterPath holds the last generation number ever handed out in this
// root. Nothing removes it (not even index reset), so generation names
// never repeat: a reader holding an old sidecar can never open a different
// generation under the name it read.
func (l Layout) CounterPath() string { return filepath.Join(l.Dir, "generation.counter") }

// GenDir is the directory of one generation.
func (l Layout) GenDir(gen string) string { return filepath.Join(l.IndexDir(), gen) }

// genName formats generation number n.
func genName(n uint64) string { return fmt.Sprintf("%09d", n) }

// parseGen returns the number of a generation directory name: at least
// nine decimal digits, as genName writes.
func parseGen(name string) (uint64, bool) {
	if len(name) < 9 || !fingerprint.ValidGeneration(name) {
		return 0, false
	}
	n, err := strconv.ParseUint(name, 10, 64)
	return n, err == nil
}

// Generations returns the generation directory names, oldest first:
// os.ReadDir sorts by name, and the names have a fixed width.
func (l Layout) Generations() ([]string, error) {
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

// NextGeneration hands out a generation name greater than every name used
// before in this root: than the persisted counter, current and every
// existing directory. The counter is durably advanced before the name is
// returned, so a crash after this call never lets the name come back. The
// caller holds the refresh lock.
func (l Layout) NextGeneration(current string) (string, error) {
	last, err := l.readCounter()
	if err != nil {
		return "", err
	}
	if n, ok := parseGen(current); ok && n > last {
		last = n
	}
	gens, err := l.Generations()
	if err != nil {
		return "", err
	}
	for _, g := range gens {
		if n, _ := parseGen(g); n > last {
			last = n
		}
	}
	next := last + 1
	if err := fingerprint.WriteFileAtomic(l.CounterPath(), []byte(strconv.FormatUint(next, 10)+"\n"), fingerprint.FilePerm); err != nil && !fingerprint.Renamed(err) {
		return "", fmt.Errorf("advance generation counter: %w", err)
	}
	return genName(next), nil
}

// readCounter returns the persisted counter, 0 when there is none. A
// counter that does not parse is an error: guessing could reuse a name.
func (l Layout) readCounter() (uint64, error) {
	b, err := os.ReadFile(l.CounterPath())
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read generation counter: %w", err)
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("generation counter %s is corrupt (%q); remove it only when no generation exists", l.CounterPath(), b)
	}
	return n, nil
}
