package vector

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"slices"
	"strings"
	"unsafe"
)

//semguard:begin vector-segment

const (
	segMagic   = "ARAGVSEG"
	segVersion = 2
	headerSize = 64 // also the payload offset: mmap is page-aligned, so the payload is 64-byte aligned
	maxIDBytes = math.MaxUint32
)

// crcTable returns the CRC-32C table; hash/crc32 builds it once, on first use,
// so importing this package costs nothing at start-up.
func crcTable() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) }

// errCorrupt marks a file whose bytes do not match its own description.
var errCorrupt = errors.New("corrupt vector index")

// segName is the file name of the segment with sequence number seq. Sequence
// numbers are never reused within a chain of generations, so a hard-linked
// segment never collides with a newly written one.
func segName(seq uint64) string { return fmt.Sprintf("seg-%016x.vec", seq) }

// header is the fixed 64-byte head of a segment file.
type header struct {
	dims       uint32
	count      uint64
	idsOff     uint64
	idsLen     uint64
	payloadCRC uint32
	flags      uint32
	codesOff   uint64
	metaCRC    uint32
}

func (h *header) encode() []byte {
	b := make([]byte, headerSize)
	copy(b, segMagic)
	le := binary.LittleEndian
	le.PutUint32(b[8:], segVersion)
	le.PutUint32(b[12:], h.dims)
	le.PutUint64(b[16:], h.count)
	le.PutUint64(b[24:], h.idsOff)
	le.PutUint64(b[32:], h.idsLen)
	le.PutUint32(b[40:], h.payloadCRC)
	le.PutUint32(b[44:], h.flags)
	le.PutUint64(b[48:], h.codesOff)
	le.PutUint32(b[60:], h.metaCRC)
	return b
}

func decodeHeader(b []byte) (header, error) {
	if len(b) < headerSize || string(b[:8]) != segMagic {
		return header{}, fmt.Errorf("segment: bad magic: %w", errCorrupt)
	}
	le := binary.LittleEndian
	if v := le.Uint32(b[8:]); v != segVersion {
		return header{}, fmt.Errorf("segment: unsupported version %d: %w", v, errCorrupt)
	}
	return header{
		dims:       le.Uint32(b[12:]),
		count:      le.Uint64(b[16:]),
		idsOff:     le.Uint64(b[24:]),
		idsLen:     le.Uint64(b[32:]),
		payloadCRC: le.Uint32(b[40:]),
		flags:      le.Uint32(b[44:]),
		codesOff:   le.Uint64(b[48:]),
		metaCRC:    le.Uint32(b[60:]),
	}, nil
}

func align8(n uint64) uint64 { return (n + 7) &^ 7 }

// row is one vector to be written: its ID and its components.
type row struct {
	id  string
	vec []float32
}

// segMeta is what the manifest records about a segment.
type segMeta struct {
	seq     uint64
	count   uint64
	size    uint64
	metaCRC uint32
	tombs   []uint32 // sorted rows that are deleted
}

// metaChecksum covers the header (without its own checksum field) and the ID section.
func metaChecksum(hdr, ids []byte) uint32 {
	return crc32.Update(crc32.Checksum(hdr[:60], crcTable()), crcTable(), ids)
}

// idSection encodes the ID section: (count+1) uint32 string offsets, count
// uint32 rows in ID order, then the ID bytes. It returns nil if the IDs do not
// fit in 4 GiB.
func idSection(rows []row) []byte {
	total := 0
	for _, r := range rows {
		total += len(r.id)
	}
	if uint64(total) > maxIDBytes {
		return nil
	}
	n := len(rows)
	b := make([]byte, (2*n+1)*4+total)
	le := binary.LittleEndian
	strs := b[(2*n+1)*4:]
	off := 0
	for i, r := range rows {
		le.PutUint32(b[4*i:], uint32(off))
		off += copy(strs[off:], r.id)
	}
	le.PutUint32(b[4*n:], uint32(off))
	perm := make([]uint32, n)
	for i := range perm {
		perm[i] = uint32(i)
	}
	slices.SortFunc(perm, func(x, y uint32) int { return strings.Compare(rows[x].id, rows[y].id) })
	for i, p := range perm {
		le.PutUint32(b[4*(n+1+i):], p)
	}
	return b
}

// floatBytes views a float32 slice as its little-endian bytes (the package
// requires a little-endian host; see hostLittleEndian).
func floatBytes(v []float32) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*4)
}

func hostLittleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}

//semguard:end vector-segment

// segment is an open, memory-mapped segment file.
type segment struct {
	meta   segMeta
	data   []byte // the whole mapping
	dims   int
	count  int
	vecs   []float32 // count*dims, aliases data
	codes  []byte    // count*codeStride(dims) quantized rows, aliases data
	scales []float32 // count, aliases data
	offs   []byte    // (count+1) uint32
	perm   []byte    // count uint32
	strs   []byte
	hdr    header
}

// openSegment maps the segment described by m and checks its header and metadata checksum.
func openSegment(dir string, m segMeta, dims int) (*segment, error) {
	path := dir + string(os.PathSeparator) + segName(m.seq)
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open segment: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("stat segment: %w", err)
	}
	if uint64(fi.Size()) != m.size {
		return nil, fmt.Errorf("segment %s: size %d, manifest says %d: %w", segName(m.seq), fi.Size(), m.size, errCorrupt)
	}
	data, err := mapFile(f, int(m.size))
	if err != nil {
		return nil, fmt.Errorf("mmap segment %s: %w", segName(m.seq), err)
	}
	s, err := parseSegment(data, m, dims)
	if err != nil {
		unmapFile(data)
		return nil, fmt.Errorf("segment %s: %w", segName(m.seq), err)
	}
	return s, nil
}

// adviseRandom tells the kernel that the float32 payload is read at random
// (the 4-bit scan reads only its candidates' rows): no readahead of the
// neighbouring rows from disk. A first query on a 300,000-row index whose
// file was not cached took 0.11-0.19 s with it and 0.81-0.88 s without
// (docs/BENCHMARKS.md). The exact scan reads the payload in order, so an
// index it scans is not advised. The advice is only advice: an error
// changes nothing.
func adviseRandom(s *segment) {
	page := uint64(os.Getpagesize())
	if end := s.hdr.codesOff / page * page; end > 0 {
		adviseRandomPages(s.data[:end])
	}
}

//semguard:begin vector-segment-read

func parseSegment(data []byte, m segMeta, dims int) (*segment, error) {
	h, err := decodeHeader(data)
	if err != nil {
		return nil, err
	}
	if int(h.dims) != dims {
		return nil, fmt.Errorf("dims %d, want %d", h.dims, dims)
	}
	if h.count != m.count || h.metaCRC != m.metaCRC {
		return nil, fmt.Errorf("header disagrees with manifest: %w", errCorrupt)
	}
	n := h.count
	if n > math.MaxInt32 {
		return nil, fmt.Errorf("bad layout: %w", errCorrupt)
	}
	l := segLayout(n, dims)
	if h.codesOff != l.codesOff || h.idsOff != l.idsOff ||
		h.idsOff+h.idsLen != uint64(len(data)) || h.idsLen < (2*n+1)*4 {
		return nil, fmt.Errorf("bad layout: %w", errCorrupt)
	}
	ids := data[h.idsOff:]
	if metaChecksum(data[:headerSize], ids) != h.metaCRC {
		return nil, fmt.Errorf("metadata checksum mismatch: %w", errCorrupt)
	}
	s := &segment{meta: m, data: data, dims: dims, count: int(n), hdr: h}
	s.offs = ids[:4*(n+1)]
	s.perm = ids[4*(n+1) : 4*(2*n+1)]
	s.strs = ids[4*(2*n+1):]
	if uint64(binary.LittleEndian.Uint32(s.offs[4*n:])) != uint64(len(s.strs)) {
		return nil, fmt.Errorf("bad ID table: %w", errCorrupt)
	}
	if n > 0 {
		s.vecs = unsafe.Slice((*float32)(unsafe.Pointer(&data[headerSize])), int(n)*dims)
		s.codes = data[l.codesOff:l.scalesOff]
		s.scales = unsafe.Slice((*float32)(unsafe.Pointer(&data[l.scalesOff])), int(n))
	}
	for _, t := range m.tombs {
		if uint64(t) >= n {
			return nil, fmt.Errorf("tombstone row %d out of range: %w", t, errCorrupt)
		}
	}
	return s, nil
}

func (s *segment) close() error {
	if s.data == nil {
		return nil
	}
	err := unmapFile(s.data)
	s.data, s.vecs, s.codes, s.scales, s.offs, s.perm, s.strs = nil, nil, nil, nil, nil, nil, nil
	return err
}

// id returns the ID bytes of row r; they alias the mapping.
func (s *segment) id(r int) []byte {
	if r < 0 || r >= s.count {
		return nil
	}
	le := binary.LittleEndian
	a, b := le.Uint32(s.offs[4*r:]), le.Uint32(s.offs[4*r+4:])
	if a > b || uint64(b) > uint64(len(s.strs)) {
		return nil // unreachable for a file that passed its checksum and was written by us
	}
	return s.strs[a:b]
}

func (s *segment) vec(r int) []float32 { return s.vecs[r*s.dims : (r+1)*s.dims] }

// lookup binary-searches the ID-ordered permutation for id.
func (s *segment) lookup(id string) (int, bool) {
	key := unsafe.Slice(unsafe.StringData(id), len(id))
	lo, hi := 0, s.count
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		r := int(binary.LittleEndian.Uint32(s.perm[4*m:]))
		if bytes.Compare(s.id(r), key) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == s.count {
		return 0, false
	}
	r := int(binary.LittleEndian.Uint32(s.perm[4*lo:]))
	if r >= s.count || !bytes.Equal(s.id(r), key) {
		return 0, false
	}
	return r, true
}

// verifyPayload recomputes the payload checksum.
func (s *segment) verifyPayload() error {
	if crc32.Checksum(s.data[headerSize:s.hdr.idsOff], crcTable()) != s.hdr.payloadCRC {
		return fmt.Errorf("segment %s: payload checksum mismatch: %w", segName(s.meta.seq), errCorrupt)
	}
	return nil
}

//semguard:end vector-segment-read
