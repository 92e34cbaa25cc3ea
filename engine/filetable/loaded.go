package filetable

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/internal/changelog"
	"github.com/autorag/autorag/internal/failpoint"
)

// Loaded is a generation's table as read from its directory, with what the
// next generation's log extends: read whole (Load), or opened for lookups
// by path (Open).
type Loaded struct {
	Table Table  // the whole table; nil when opened
	base  []byte // files.bin; nil when opened
	sum   [changelog.SumLen]byte
	size  int64
	log   []byte  // files.log; nil without one
	open  *opened // nil when read whole
}

// opened is what Open keeps to look paths up.
type opened struct {
	f       *os.File
	x       *index
	changes map[string]*Record // the log's, by path; nil: removed
	counts  Counts
}

// Load reads the table of the generation in dir: its base and, when there
// is one, its log applied to it.
func Load(dir string) (*Loaded, error) {
	path := filepath.Join(dir, File)
	base, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read file table: %w", err)
	}
	t, err := Decode(base)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	l := &Loaded{Table: t, base: base, sum: [changelog.SumLen]byte(base[len(base)-changelog.SumLen:]), size: int64(len(base))}
	changes, err := l.readLog(dir)
	if err != nil {
		return nil, err
	}
	l.Table = apply(t, changes)
	return l, nil
}

// Open opens the table of the generation in dir for lookups by path
// without reading its base whole: the base through its index, one block
// per lookup (each checked against its checksum), the log decoded whole.
// counts must be the table's (the sidecar's: the commit wrote them from
// the table). A base without a usable index fails; Load reads it. Close
// releases the base.
func Open(dir string, counts Counts) (*Loaded, error) {
	f, err := os.Open(filepath.Join(dir, File))
	if err != nil {
		return nil, fmt.Errorf("read file table: %w", err)
	}
	x, err := openIndex(dir, f)
	if err != nil {
		f.Close()
		return nil, err
	}
	l := &Loaded{sum: x.baseSum, size: x.baseSize}
	changes, err := l.readLog(dir)
	if err != nil {
		f.Close()
		return nil, err
	}
	l.open = &opened{f: f, x: x, changes: changes, counts: counts}
	return l, nil
}

// readLog reads the log in dir, if any, into l.log and returns its
// changes (none without a log).
func (l *Loaded) readLog(dir string) (map[string]*Record, error) {
	path := filepath.Join(dir, LogFile)
	log, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]*Record{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read file table log: %w", err)
	}
	changes, err := readLog(log, l.sum)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	l.log = log
	return changes, nil
}

// Close releases an opened table's base; a table read whole (or none:
// nil) holds nothing.
func (l *Loaded) Close() error {
	if l == nil || l.open == nil {
		return nil
	}
	return l.open.f.Close()
}

// Lookup returns the record of path.
func (l *Loaded) Lookup(path string) (Record, bool, error) {
	if l.open == nil {
		r, ok := l.Table.find(path)
		return r, ok, nil
	}
	if r, ok := l.open.changes[path]; ok {
		if r == nil {
			return Record{}, false, nil
		}
		return *r, true, nil
	}
	return l.open.x.lookup(l.open.f, path)
}

// counts is the table's counts.
func (l *Loaded) counts() Counts {
	if l.open != nil {
		return l.open.counts
	}
	return l.Table.Counts()
}

// Write writes the whole table, and its index, into a generation that is
// still being built: nothing reads it before the commit, and the builder
// fsyncs the whole generation before that, so a plain write is enough (a
// temp file and rename would cost another inode and two fsyncs).
func Write(dir string, t Table) error {
	b := t.Encode()
	if err := os.WriteFile(filepath.Join(dir, File), b, fingerprint.FilePerm); err != nil {
		return fmt.Errorf("write file table: %w", err)
	}
	return writeIndex(dir, b)
}

// WriteNext writes into dir, a generation being built on the one l was
// read from (fromDir), that generation's table changed by upserts
// (records that replace or add theirs) and removed (paths that leave it):
// as a hard link to the base in fromDir (and its index) and the base's log
// plus one record while that log stays within logLimit, else whole. It
// returns the counts of the table it wrote; l.Table may be changed in
// place to make it.
func (l *Loaded) WriteNext(fromDir, dir string, upserts []Record, removed []string) (Counts, error) {
	rec := encodeChange(upserts, removed)
	log := l.log
	if log == nil {
		log = logHeader(l.sum)
	}
	if len(log)+len(rec) > logLimit(int(l.size)) {
		if l.open != nil { // the whole table is needed after all
			whole, err := Load(fromDir)
			if err != nil {
				return Counts{}, err
			}
			l = whole
		}
		next := apply(l.Table, changes(upserts, removed))
		return next.Counts(), Write(dir, next)
	}
	if err := l.carryBase(fromDir, dir); err != nil {
		return Counts{}, err
	}
	b := make([]byte, 0, len(log)+len(rec))
	b = append(append(b, log...), rec...)
	if err := os.WriteFile(filepath.Join(dir, LogFile), b, fingerprint.FilePerm); err != nil {
		return Counts{}, fmt.Errorf("write file table log: %w", err)
	}
	c, err := l.countsAfter(upserts, removed)
	if err != nil {
		return c, err
	}
	return c, failpoint.Hit("after-files-log")
}

// carryBase links the base in fromDir, and its index, into dir. A base read
// whole without an index gets one written.
func (l *Loaded) carryBase(fromDir, dir string) error {
	if err := os.Link(filepath.Join(fromDir, File), filepath.Join(dir, File)); err != nil {
		return fmt.Errorf("carry file table: %w", err)
	}
	err := os.Link(filepath.Join(fromDir, IndexFile), filepath.Join(dir, IndexFile))
	if errors.Is(err, fs.ErrNotExist) && l.base != nil {
		return writeIndex(dir, l.base)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("carry file table index: %w", err)
	}
	return nil
}

// countsAfter is the counts of l's table changed by upserts and removed,
// found by looking up only the changed paths.
func (l *Loaded) countsAfter(upserts []Record, removed []string) (Counts, error) {
	c := l.counts()
	for p, r := range changes(upserts, removed) {
		old, ok, err := l.Lookup(p)
		if err != nil {
			return c, err
		}
		if ok {
			c.add(old, -1)
		}
		if r != nil {
			c.add(*r, +1)
		}
	}
	return c, nil
}

// find returns the record of path by binary search.
func (t Table) find(path string) (Record, bool) {
	i, ok := slices.BinarySearchFunc(t, path, func(r Record, p string) int { return strings.Compare(r.Path, p) })
	if !ok {
		return Record{}, false
	}
	return t[i], true
}

// Carry links the table of the generation in fromDir, base, index and log,
// into dir (a compaction changes no file).
func Carry(fromDir, dir string) error {
	for _, name := range []string{File, IndexFile, LogFile} {
		err := os.Link(filepath.Join(fromDir, name), filepath.Join(dir, name))
		if err != nil && !(name != File && errors.Is(err, fs.ErrNotExist)) {
			return fmt.Errorf("carry file table: %w", err)
		}
	}
	return nil
}
