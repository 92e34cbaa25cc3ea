package mirror

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
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
