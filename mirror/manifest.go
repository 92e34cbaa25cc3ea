package mirror

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/autorag/autorag/fingerprint"
)

// Entry is one source file in the manifest.
type Entry struct {
	Path     string // relative to root, '/' separators
	Size     int64
	MtimeNS  int64
	RawHash  Hash // BLAKE3-256 of the file's bytes
	TextHash Hash // BLAKE3-256 of the mirror object (Doc.Encode)
	Parser   string
}

// Manifest lists every indexed source, sorted bytewise by Path with no
// duplicates.
type Manifest struct {
	Entries []Entry
	// WrittenNS is the mtime of the manifest file it was loaded from (0 for
	// one that was never saved): entries whose mtime is not older than it
	// are racy (see doc.go) and are hashed even when size and mtime match.
	WrittenNS int64
	// Stamp is an opaque string the caller records about the entries (the
	// engine: the fingerprint of their paths and text hashes). Save keeps
	// it with the entries in the log record it appends (written whole, in
	// a log of one record), and LoadManifest returns the one saved with
	// the entries it returns; "" when none was (or an older version saved
	// them). A scan's manifest starts without one.
	Stamp string

	origin *origin // the files it was loaded from; nil: Save writes it whole
	delta  *delta  // how Scan derived it from the manifest it scanned against
}

// racyWindow bounds how far past the manifest's write an entry's mtime
// counts as racy: timestamp granularity (one clock tick, two seconds on
// FAT) is what makes an edit keep its mtime, and a file dated far in the
// future (clock skew, an unpacked archive) would otherwise be read on
// every refresh.
const racyWindow = int64(2 * time.Second)

// Racy reports whether e may have changed without its size or mtime
// changing: its mtime falls in the same timestamp tick as the manifest's
// own write, so an edit right after the manifest recorded it could keep
// both (git's "racily clean" entries).
func (m *Manifest) Racy(e *Entry) bool {
	return m.WrittenNS != 0 && e.MtimeNS >= m.WrittenNS && e.MtimeNS < m.WrittenNS+racyWindow
}

// LoadManifest reads the manifest at path and applies the log of changes
// saved beside it since (manifestlog.go). A missing file is an empty
// manifest; a truncated, damaged or wrong-version file is an error wrapping
// ErrCorrupt. A damaged log only loses its records from the damage on: the
// manifest is then older than the last save, which costs the next scan
// some hashing and nothing else.
func LoadManifest(path string) (*Manifest, error) {
	b, written, err := readWithMtime(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Manifest{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load manifest: %w", err)
	}
	m, err := decodeManifest(b)
	if err != nil {
		return nil, fmt.Errorf("load manifest %s: %w", path, err)
	}
	m.WrittenNS = written
	m.loadLog(path, b, written)
	return m, nil
}

// SourceBytes is the sum of the sizes of the files the manifest at path
// records (0 when it cannot be read): what an index holds, not what the
// tree holds (ignored, skipped and failed files are not in it).
func SourceBytes(path string) int64 {
	man, err := LoadManifest(path)
	if err != nil {
		return 0
	}
	var n int64
	for _, en := range man.Entries {
		n += en.Size
	}
	return n
}

// readWithMtime reads a file and the mtime of the same open file.
func readWithMtime(path string) ([]byte, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	b, err := io.ReadAll(f)
	return b, fi.ModTime().UnixNano(), err
}

// Save writes the manifest durably, creating the directory if needed. A
// manifest loaded from path (or derived from one by Scan) is saved as one
// record appended to the log beside it: what changed since the load, so
// that a refresh that changed one file writes one entry, not all of them.
// Otherwise, or once the log would pass an eighth of the base's size, it is
// written whole and atomically (temp file, fsync, rename, fsync of the
// directory), and the log, which names the old base, is removed. Entries
// must be sorted by Path without duplicates.
func (m *Manifest) Save(path string) error {
	if err := m.checkSorted(); err != nil {
		return fmt.Errorf("save manifest: %w", err)
	}
	if err := fingerprint.MkdirAll(filepath.Dir(path)); err != nil {
		return fmt.Errorf("save manifest: %w", err)
	}
	return m.save(path)
}

// saveWhole writes the base file and removes the log it supersedes (a log
// left behind names the old base's checksum and is ignored); a stamp goes
// into a new log.
func (m *Manifest) saveWhole(path string) error {
	b := m.encode()
	if err := fingerprint.WriteFileAtomic(path, b, fingerprint.FilePerm); err != nil {
		return fmt.Errorf("save manifest: %w", err)
	}
	if err := os.Remove(logPath(path)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("save manifest: remove superseded log: %w", err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		m.origin = nil
		return nil
	}
	m.origin = &origin{sum: Hash(b[len(b)-len(Hash{}):]), base: seen(fi), baseSize: int64(len(b)), entries: m.Entries}
	m.WrittenNS = fi.ModTime().UnixNano()
	if m.Stamp == "" {
		return nil
	}
	// The base has no room for the stamp: a log of one record, changing
	// nothing, keeps it.
	return m.appendRecord(path, encodeLogRecord(nil, nil, m.Stamp))
}

// Lookup returns the entry for path by binary search. The pointer aliases
// m.Entries.
func (m *Manifest) Lookup(path string) (*Entry, bool) {
	i, ok := slices.BinarySearchFunc(m.Entries, path, func(e Entry, p string) int {
		return strings.Compare(e.Path, p)
	})
	if !ok {
		return nil, false
	}
	return &m.Entries[i], true
}

func (m *Manifest) checkSorted() error {
	for i := range m.Entries {
		if m.Entries[i].Path == "" {
			return errors.New("entry with empty path")
		}
		if i > 0 && m.Entries[i-1].Path >= m.Entries[i].Path {
			return fmt.Errorf("entries not sorted at %q", m.Entries[i].Path)
		}
	}
	return nil
}
