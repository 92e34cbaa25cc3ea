package wordtab

import (
	"errors"
	"fmt"
	"hash/crc32"
	"math"
)

// Format constants.
const (
	Magic         = "AGWTAB01"
	FormatVersion = 1
	HeaderSize    = 56
	// MaxTableSize bounds the table: a slot holds a 24-bit record offset.
	MaxTableSize = 1 << 24
)

// Table reads a word table in place. The zero value is unusable; build one
// with Open. A Table is immutable and safe for concurrent use.
type Table struct {
	data       string
	dims       int
	rows       int
	mask       uint32
	slots      string // the slot array
	recStart   int
	recEnd     int
	oovNorm    float32
	components string // schemes × dims float32
}

// ErrCorrupt reports a table that does not parse.
var ErrCorrupt = errors.New("corrupt word table")

// Open checks the header of data and returns a reader over it. It touches
// only the header: the cost is constant whatever the table's size. Use
// Verify for a full check.
func Open(data string) (*Table, error) {
	if len(data) < HeaderSize || data[:8] != Magic {
		return nil, fmt.Errorf("%w: bad magic", ErrCorrupt)
	}
	if v := u32(data, 8); v != FormatVersion {
		return nil, fmt.Errorf("%w: format version %d, want %d", ErrCorrupt, v, FormatVersion)
	}
	t := &Table{
		data:     data,
		dims:     int(u32(data, 12)),
		rows:     int(u32(data, 16)),
		recStart: int(u32(data, 28)),
		recEnd:   int(u32(data, 32)),
		oovNorm:  f32(data, 36),
	}
	bits := u32(data, 20)
	slotsOff := int(u32(data, 24))
	nComp := int(u32(data, 40))
	compOff := int(u32(data, 44))
	switch {
	case int(u32(data, 48)) != len(data) || len(data) > MaxTableSize:
		return nil, fmt.Errorf("%w: length %d, header says %d", ErrCorrupt, len(data), u32(data, 48))
	case t.dims <= 0 || t.dims > 4096 || bits > 24 || nComp != len(schemes):
		return nil, fmt.Errorf("%w: dims %d, slot bits %d, components %d", ErrCorrupt, t.dims, bits, nComp)
	case !within(compOff, nComp*t.dims*4, len(data)) || !within(slotsOff, 4<<bits, len(data)) ||
		t.recStart < HeaderSize || t.recStart > t.recEnd || t.recEnd > len(data):
		return nil, fmt.Errorf("%w: section out of range", ErrCorrupt)
	}
	t.mask = 1<<bits - 1
	t.slots = data[slotsOff : slotsOff+4<<bits]
	t.components = data[compOff : compOff+nComp*t.dims*4]
	return t, nil
}

func within(off, n, size int) bool { return off >= HeaderSize && n >= 0 && off+n <= size }

// Verify checks the CRC and walks every record, checking that each one is
// well formed and that Lookup finds it. It reads the whole table.
func (t *Table) Verify() error {
	if got, want := crc32.ChecksumIEEE([]byte(t.data[HeaderSize:])), u32(t.data, 52); got != want {
		return fmt.Errorf("%w: crc %08x, header says %08x", ErrCorrupt, got, want)
	}
	n := 0
	for off := t.recStart; off < t.recEnd; off = t.Next(off) {
		if t.Next(off) > t.recEnd {
			return fmt.Errorf("%w: record at %d overruns", ErrCorrupt, off)
		}
		w := t.Word(off)
		if got, ok := t.Lookup([]byte(w)); !ok || got != off {
			return fmt.Errorf("%w: lookup of %q gave %d, %v; record is at %d", ErrCorrupt, w, got, ok, off)
		}
		n++
	}
	if n != t.rows {
		return fmt.Errorf("%w: %d records, header says %d", ErrCorrupt, n, t.rows)
	}
	return nil
}

// Dims is the vector length.
func (t *Table) Dims() int { return t.dims }

// Rows is the number of words.
func (t *Table) Rows() int { return t.rows }

// OOVNorm is the length a fallback vector should have: the median length
// of the rarest tenth of the table's vectors.
func (t *Table) OOVNorm() float32 { return t.oovNorm }

// Component returns scheme i's principal component (a unit vector) into
// dst, which must have Dims elements.
func (t *Table) Component(i int, dst []float32) {
	base := i * t.dims * 4
	for d := range dst[:t.dims] {
		dst[d] = f32(t.components, base+4*d)
	}
}

// Lookup returns the offset of word's record. word must be lower case, as
// the tokenizer produces it. It does not allocate.
func (t *Table) Lookup(word []byte) (int, bool) {
	h := Hash(word)
	tag := uint32(h >> 56)
	for i := uint32(h) & t.mask; ; i = (i + 1) & t.mask {
		s := u32(t.slots, int(i)*4)
		if s == 0 {
			return 0, false
		}
		if s&0xff != tag {
			continue
		}
		off := int(s >> 8)
		n := int(t.data[off])
		if n == len(word) && t.data[off+1:off+1+n] == string(word) {
			return off, true
		}
	}
}

// First is the offset of the first record (the most frequent word); Next
// gives the following one, and the walk ends at End.
func (t *Table) First() int { return t.recStart }

// End is the offset just past the last record.
func (t *Table) End() int { return t.recEnd }

// Next is the offset of the record after the one at off.
func (t *Table) Next(off int) int { return off + 1 + int(t.data[off]) + 1 + 4 + t.dims }

// Word is the word of the record at off.
func (t *Table) Word(off int) string { return t.data[off+1 : off+1+int(t.data[off])] }

// Vector returns the record's rank code, its scale and its int8
// components as bytes (component d is int8(q[d])).
func (t *Table) Vector(off int) (code uint8, scale float32, q string) {
	p := off + 1 + int(t.data[off])
	return t.data[p], f32(t.data, p+1), t.data[p+5 : p+5+t.dims]
}

// Hash is 64-bit FNV-1a.
func Hash(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

func u32(s string, i int) uint32 {
	_ = s[i+3]
	return uint32(s[i]) | uint32(s[i+1])<<8 | uint32(s[i+2])<<16 | uint32(s[i+3])<<24
}

func f32(s string, i int) float32 { return math.Float32frombits(u32(s, i)) }
