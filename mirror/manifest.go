package mirror

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/autorag/autorag/fingerprint"
)

// Manifest layout (see doc.go for the rationale):
//
//	"ARMF" manifestVersion
//	uvarint parserCount  { uvarint len  name@version }...
//	uvarint entryCount
//	entry: uvarint shared    bytes of the previous path that this path repeats
//	       uvarint len  suffix bytes
//	       uvarint Size
//	       [8]     MtimeNS   (little-endian two's complement)
//	       [32]    RawHash
//	       [32]    TextHash
//	       uvarint parser index
//	[32] BLAKE3-256 of every byte before it
const (
	manifestMagic   = "ARMF"
	manifestVersion = 1
	// minEntryLen is the smallest possible encoded entry; it bounds how many
	// entries a corrupt count may make the decoder allocate.
	minEntryLen = 1 + 1 + 1 + 8 + 2*len(Hash{}) + 1
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

//semguard:begin manifest

// encode renders the manifest in the versioned binary layout.
func (m *Manifest) encode() []byte {
	parsers, index := parserTable(m.Entries)
	size := len(manifestMagic) + 1 + 16 + len(Hash{})
	for _, p := range parsers {
		size += 1 + len(p)
	}
	for i := range m.Entries {
		size += 3*binary.MaxVarintLen64 + 2*len(Hash{}) + 2 + len(m.Entries[i].Path)
	}
	b := make([]byte, 0, size)
	b = append(b, manifestMagic...)
	b = append(b, manifestVersion)
	b = binary.AppendUvarint(b, uint64(len(parsers)))
	for _, p := range parsers {
		b = appendString(b, p)
	}
	b = binary.AppendUvarint(b, uint64(len(m.Entries)))
	prev := ""
	for i := range m.Entries {
		b = appendEntry(b, &m.Entries[i], prev, index)
		prev = m.Entries[i].Path
	}
	sum := HashBytes(b)
	return append(b, sum[:]...)
}

// parserTable lists the distinct parsers in first-seen order.
func parserTable(entries []Entry) ([]string, map[string]uint64) {
	var parsers []string
	index := make(map[string]uint64)
	for i := range entries {
		if _, ok := index[entries[i].Parser]; !ok {
			index[entries[i].Parser] = uint64(len(parsers))
			parsers = append(parsers, entries[i].Parser)
		}
	}
	return parsers, index
}

func appendEntry(b []byte, e *Entry, prev string, parsers map[string]uint64) []byte {
	shared := commonPrefix(prev, e.Path)
	b = binary.AppendUvarint(b, uint64(shared))
	b = appendString(b, e.Path[shared:])
	b = appendEntryFields(b, e)
	return binary.AppendUvarint(b, parsers[e.Parser])
}

// appendEntryFields appends what an entry holds between its path and its
// parser, in the manifest and in its log alike.
func appendEntryFields(b []byte, e *Entry) []byte {
	b = binary.AppendUvarint(b, uint64(e.Size))
	b = binary.LittleEndian.AppendUint64(b, uint64(e.MtimeNS))
	b = append(b, e.RawHash[:]...)
	return append(b, e.TextHash[:]...)
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// decodeManifest verifies the checksum and parses the layout. Large inputs
// are hashed concurrently with decoding (the decoder is safe on any input;
// its result is discarded unless the checksum matches).
func decodeManifest(b []byte) (*Manifest, error) {
	n := len(b) - len(Hash{})
	if n < len(manifestMagic)+1 {
		return nil, fmt.Errorf("truncated: %w", ErrCorrupt)
	}
	want := Hash(b[n:])
	if n < 64<<10 {
		if HashBytes(b[:n]) != want {
			return nil, fmt.Errorf("checksum mismatch: %w", ErrCorrupt)
		}
		return decodeManifestBody(b[:n])
	}
	sum := make(chan Hash, 1)
	go func() { sum <- HashBytes(b[:n]) }()
	m, err := decodeManifestBody(b[:n])
	if <-sum != want {
		return nil, fmt.Errorf("checksum mismatch: %w", ErrCorrupt)
	}
	return m, err
}

// decodeManifestBody parses everything before the checksum.
func decodeManifestBody(b []byte) (*Manifest, error) {
	r := reader{b: b}
	if string(r.bytes(len(manifestMagic))) != manifestMagic {
		return nil, fmt.Errorf("bad magic: %w", ErrCorrupt)
	}
	if v := r.byte(); v != manifestVersion {
		return nil, fmt.Errorf("unsupported version %d: %w", v, ErrCorrupt)
	}
	parsers := make([]string, r.count())
	for i := range parsers {
		parsers[i] = r.string()
	}
	cnt := r.uvarint()
	if r.err == nil && cnt > uint64(r.remaining()/minEntryLen) {
		r.fail("entry count exceeds input")
	}
	if r.err != nil {
		return nil, fmt.Errorf("%s: %w", r.err, ErrCorrupt)
	}
	m := &Manifest{}
	if cnt > 0 {
		m.Entries = make([]Entry, cnt)
	}
	if err := decodeEntries(&r, m.Entries, parsers); err != nil {
		return nil, fmt.Errorf("%w: %w", err, ErrCorrupt)
	}
	return m, nil
}

// decodeEntries fills entries from r, checking that paths are non-empty and
// strictly increasing and that nothing follows the last entry. All paths
// share one backing string built in a strings.Builder: one allocation, no
// zeroing and no final copy.
func decodeEntries(r *reader, entries []Entry, parsers []string) error {
	var arena strings.Builder
	arena.Grow(r.remaining())
	ends := make([]int, len(entries))
	start := 0 // where the previous path starts in arena
	for i := range entries {
		prev := arena.String()[start:]
		shared := r.uvarint()
		if shared > uint64(len(prev)) {
			r.fail("shared prefix exceeds previous path")
		}
		suffix := r.bytes(r.count())
		if r.err != nil {
			return r.err
		}
		// Paths must be strictly increasing and shared maximal (as the
		// encoder writes it); then cur > prev is decided by one byte.
		if len(suffix) == 0 || int(shared) < len(prev) && suffix[0] <= prev[shared] {
			return fmt.Errorf("entry %d: path out of order", i)
		}
		arena.WriteString(prev[:shared])
		arena.Write(suffix)
		cur := arena.String()[start+len(prev):]
		start += len(prev)
		ends[i] = arena.Len()
		decodeEntryFields(r, &entries[i])
		entries[i].Parser = parserAt(r, parsers)
		if r.err != nil {
			return fmt.Errorf("entry %q: %w", cur, r.err)
		}
	}
	if r.remaining() != 0 {
		return errors.New("trailing bytes")
	}
	all := arena.String()
	begin := 0
	for i := range entries {
		entries[i].Path = all[begin:ends[i]]
		begin = ends[i]
	}
	return nil
}

// decodeEntryFields reads what appendEntryFields wrote; a failure is
// left in r.err.
func decodeEntryFields(r *reader, e *Entry) {
	size := r.uvarint()
	if size > math.MaxInt64 {
		r.fail("size out of range")
	}
	e.Size = int64(size)
	if t := r.bytes(8); t != nil {
		e.MtimeNS = int64(binary.LittleEndian.Uint64(t))
	}
	copy(e.RawHash[:], r.bytes(len(Hash{})))
	copy(e.TextHash[:], r.bytes(len(Hash{})))
}

// parserAt reads a parser index of the base manifest and returns its name.
func parserAt(r *reader, parsers []string) string {
	pi := r.uvarint()
	if r.err == nil && pi >= uint64(len(parsers)) {
		r.fail("parser index out of range")
	}
	if r.err != nil {
		return ""
	}
	return parsers[pi]
}

//semguard:end manifest
