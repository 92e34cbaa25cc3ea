package mirror

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/internal/failpoint"
)

// origin is where a loaded manifest came from: the base file and the
// valid part of the log that extends it. Save appends to that log the
// difference between the loaded entries and the ones it is given, instead
// of rewriting every entry, as long as the log stays small beside its
// base. A manifest that was not loaded (nil origin) is written whole.
type origin struct {
	sum      Hash     // checksum of the base file (its last 32 bytes)
	base     fileSeen // the base file as loaded
	baseSize int64
	log      fileSeen // the log as loaded; zero when there was none
	logEnd   int64    // end of the last intact record; 0 without a log
	logVer   byte     // the log's version; 0 without a log
	entries  []Entry  // the entries as loaded: base plus log
}

// fileSeen identifies one version of a file (size and mtime).
type fileSeen struct{ size, mtimeNS int64 }

func seen(fi fs.FileInfo) fileSeen { return fileSeen{fi.Size(), fi.ModTime().UnixNano()} }

// logPath is the log beside the manifest at path: manifest.bin's is
// manifest.log.
func logPath(path string) string { return strings.TrimSuffix(path, filepath.Ext(path)) + ".log" }

// logCompactRatio bounds the log at 1/logCompactRatio of its base's size:
// past it Save rewrites the base, so loading costs at most that much more
// than reading the base alone.
const logCompactRatio = 8

// save writes m: appended to the log of its origin when that still
// describes the files on disk, is of the current version (or none yet) and
// the record keeps the log small, else whole (see Save).
func (m *Manifest) save(path string) error {
	o := m.origin
	if o == nil || o.logEnd > 0 && o.logVer != manifestLogVersion || !o.current(path) {
		return m.saveWhole(path)
	}
	upserts, removed, ok := m.changesSince(o.entries)
	if !ok {
		return m.saveWhole(path)
	}
	rec := encodeLogRecord(upserts, removed, m.Stamp)
	if o.logEnd+int64(len(rec)) > max(o.baseSize/logCompactRatio, 4<<10) {
		return m.saveWhole(path)
	}
	return m.appendRecord(path, rec)
}

// appendRecord appends rec to the log of m's origin and makes m's entries
// the origin's.
func (m *Manifest) appendRecord(path string, rec []byte) error {
	o := m.origin
	end, fi, err := appendLog(logPath(path), o, rec)
	if err != nil {
		return err
	}
	m.origin = &origin{sum: o.sum, base: o.base, baseSize: o.baseSize, log: seen(fi), logEnd: end,
		logVer: manifestLogVersion, entries: m.Entries}
	m.WrittenNS = fi.ModTime().UnixNano()
	return nil
}

// changesSince returns the entries of m that loaded, the entries as loaded,
// does not hold equal, and the paths of loaded m lacks, both sorted: from
// the scan's delta when Scan derived m from loaded (in proportion to the
// change), else by comparing every entry. ok is false when m's entries
// share their array with loaded's without such a delta: changed in place,
// they would show no difference.
func (m *Manifest) changesSince(loaded []Entry) (upserts []*Entry, removed []string, ok bool) {
	if d := m.delta; d != nil && sameSlice(d.from, loaded) && sameSlice(d.to, m.Entries) {
		upserts, removed = upsertsAndRemovals(d.changes)
		return upserts, removed, true
	}
	if len(m.Entries) > 0 && len(loaded) > 0 && &m.Entries[0] == &loaded[0] {
		return nil, nil, false
	}
	upserts, removed = diffEntries(loaded, m.Entries)
	return upserts, removed, true
}

// current reports that the base and the log are as they were loaded.
func (o *origin) current(path string) bool {
	fi, err := os.Stat(path)
	if err != nil || seen(fi) != o.base {
		return false
	}
	fi, err = os.Stat(logPath(path))
	if errors.Is(err, fs.ErrNotExist) {
		return o.logEnd == 0
	}
	return err == nil && seen(fi) == o.log
}

// appendLog appends rec to the log of o's base, creating it with its header
// when o had none and cutting off a torn tail first, and fsyncs it (and the
// directory when the file is new). It returns the new end of the log.
func appendLog(path string, o *origin, rec []byte) (int64, fs.FileInfo, error) {
	fail := func(err error) (int64, fs.FileInfo, error) {
		return 0, nil, fmt.Errorf("append manifest log: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, fingerprint.FilePerm)
	if err != nil {
		return fail(err)
	}
	defer f.Close()
	end := o.logEnd
	var b []byte
	if end == 0 {
		b = appendLogHeader(nil, manifestLogVersion, o.sum)
	}
	b = append(b, rec...)
	if err := f.Truncate(end); err != nil {
		return fail(err)
	}
	if _, err := f.WriteAt(b, end); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if o.logEnd == 0 {
		if err := fingerprint.SyncDir(filepath.Dir(path)); err != nil {
			return fail(err)
		}
	}
	fi, err := f.Stat()
	if err != nil {
		return fail(err)
	}
	if err := failpoint.Hit("after-append-manifest.log"); err != nil {
		return fail(err)
	}
	return end + int64(len(b)), fi, nil
}

// loadLog applies the log beside the base at path, when it extends that
// base (its header names the base's checksum), to m, and records m's
// origin and the stamp of the last record applied. A log that is missing,
// of another base or damaged from some record on contributes the intact
// records before; it never fails the load.
func (m *Manifest) loadLog(path string, base []byte, baseMtime int64) {
	o := &origin{sum: Hash(base[len(base)-len(Hash{}):]), base: fileSeen{int64(len(base)), baseMtime}, baseSize: int64(len(base))}
	m.origin = o
	defer func() { o.entries = m.Entries }()
	b, logMtime, err := readWithMtime(logPath(path))
	if err != nil {
		return
	}
	l := decodeLog(b, o.sum)
	if l.end == 0 {
		return
	}
	o.log, o.logEnd, o.logVer = fileSeen{int64(len(b)), logMtime}, l.end, l.version
	m.Entries = applyChanges(m.Entries, l.changes)
	m.Stamp = l.stamp
	m.WrittenNS = max(m.WrittenNS, logMtime)
}

// applyChanges merges changes (sorted by path, nil Entry for a removal)
// into entries (sorted), which it may modify. When every change replaces
// an entry in place (the usual edit), only those entries are written;
// otherwise entries are merged into a new slice in one pass.
func applyChanges(entries []Entry, changes []change) []Entry {
	if len(changes) == 0 {
		return entries
	}
	if replaceInPlace(entries, changes) {
		return entries
	}
	out := make([]Entry, 0, len(entries)+len(changes))
	j := 0
	for _, c := range changes {
		for j < len(entries) && entries[j].Path < c.path {
			out = append(out, entries[j])
			j++
		}
		if j < len(entries) && entries[j].Path == c.path {
			j++
		}
		if c.entry != nil {
			out = append(out, *c.entry)
		}
	}
	return append(out, entries[j:]...)
}

// replaceInPlace applies changes that all replace existing entries, and
// reports false, having changed nothing, when one adds or removes a path.
func replaceInPlace(entries []Entry, changes []change) bool {
	at := make([]int, len(changes))
	for k, c := range changes {
		i, ok := slices.BinarySearchFunc(entries, c.path, func(e Entry, p string) int { return strings.Compare(e.Path, p) })
		if !ok || c.entry == nil {
			return false
		}
		at[k] = i
	}
	for k, c := range changes {
		entries[at[k]] = *c.entry
	}
	return true
}

// change is one path's last state in the log: an entry, or nil when the
// path was removed.
type change struct {
	path  string
	entry *Entry
}

// diffEntries returns the entries of next that old does not hold equal,
// and the paths of old that next does not hold; both are sorted.
func diffEntries(old, next []Entry) (upserts []*Entry, removed []string) {
	i, j := 0, 0
	for i < len(old) || j < len(next) {
		switch {
		case j == len(next) || i < len(old) && old[i].Path < next[j].Path:
			removed = append(removed, old[i].Path)
			i++
		case i == len(old) || next[j].Path < old[i].Path:
			upserts = append(upserts, &next[j])
			j++
		default:
			if old[i] != next[j] {
				upserts = append(upserts, &next[j])
			}
			i++
			j++
		}
	}
	return upserts, removed
}

// sortedChanges turns the path-to-state map the log's records fill into
// changes sorted by path.
func sortedChanges(last map[string]*Entry) []change {
	out := make([]change, 0, len(last))
	for p, e := range last {
		out = append(out, change{path: p, entry: e})
	}
	slices.SortFunc(out, func(a, b change) int { return strings.Compare(a.path, b.path) })
	return out
}
