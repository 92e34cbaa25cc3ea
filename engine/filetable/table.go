package filetable

import (
	"bytes"
	"encoding/binary"
	"errors"

	"github.com/zeebo/blake3"

	"github.com/autorag/autorag/mirror"
)

//semguard:begin file-table

// Record is what a generation holds about one source file.
type Record struct {
	Path     string
	TextHash mirror.Hash
	Chunks   int   // chunk IDs are "<path>\x00<0..Chunks-1>"
	Tokens   int64 // analyzed tokens over all of the file's chunks
}

// Table is a generation's files, sorted by path.
type Table []Record

// File is the name of the table's base in a generation directory.
const File = "files.bin"

const magic = "ARFT1\n"

// ErrCorrupt reports a table whose bytes do not decode or match their
// checksum.
var ErrCorrupt = errors.New("file table corrupt")

// Counts are a table's files, chunks and analyzed tokens, the sidecar's
// counts.
type Counts struct {
	Files, Chunks int
	Tokens        int64
}

// Counts adds up the table.
func (t Table) Counts() Counts {
	c := Counts{Files: len(t)}
	for _, r := range t {
		c.Chunks += r.Chunks
		c.Tokens += r.Tokens
	}
	return c
}

func (c *Counts) add(r Record, sign int) {
	c.Files += sign
	c.Chunks += sign * r.Chunks
	c.Tokens += int64(sign) * r.Tokens
}

// Encode writes magic, count, records, then a BLAKE3 of all before it.
func (t Table) Encode() []byte {
	b := make([]byte, 0, len(magic)+binary.MaxVarintLen64+len(t)*64+32)
	b = append(b, magic...)
	b = binary.AppendUvarint(b, uint64(len(t)))
	for _, r := range t {
		b = appendRecord(b, r)
	}
	sum := blake3.Sum256(b)
	return append(b, sum[:]...)
}

// appendRecord encodes one record, in the base and in the log alike.
func appendRecord(b []byte, r Record) []byte {
	b = binary.AppendUvarint(b, uint64(len(r.Path)))
	b = append(b, r.Path...)
	b = append(b, r.TextHash[:]...)
	b = binary.AppendUvarint(b, uint64(r.Chunks))
	return binary.AppendUvarint(b, uint64(r.Tokens))
}

// Decode reads an encoded table, checking its magic and checksum. Every
// path is a substring of one copy of the input: one allocation, not one a
// record.
func Decode(b []byte) (Table, error) {
	if len(b) < len(magic)+32 || string(b[:len(magic)]) != magic {
		return nil, ErrCorrupt
	}
	body, sum := b[:len(b)-32], b[len(b)-32:]
	if got := blake3.Sum256(body); !bytes.Equal(got[:], sum) {
		return nil, ErrCorrupt
	}
	d := decoder{b: body, s: string(body), off: len(magic), ok: true}
	n := d.uvarint()
	if n > uint64(len(body)) {
		return nil, ErrCorrupt
	}
	t := make(Table, 0, n)
	for i := uint64(0); i < n && d.ok; i++ {
		t = append(t, d.record())
	}
	if !d.ok {
		return nil, ErrCorrupt
	}
	return t, nil
}

// decoder reads records from b; s holds the same bytes as a string, from
// which paths are cut. ok turns false at the first malformed field.
type decoder struct {
	b   []byte
	s   string
	off int
	ok  bool
}

func (d *decoder) uvarint() uint64 {
	v, k := binary.Uvarint(d.b[min(d.off, len(d.b)):])
	if k <= 0 {
		d.ok = false
		return 0
	}
	d.off += k
	return v
}

func (d *decoder) take(n uint64) (int, bool) {
	if !d.ok || n > uint64(len(d.b)-d.off) {
		d.ok = false
		return 0, false
	}
	at := d.off
	d.off += int(n)
	return at, true
}

func (d *decoder) path() string {
	l := d.uvarint()
	at, ok := d.take(l)
	if !ok {
		return ""
	}
	return d.s[at : at+int(l)]
}

func (d *decoder) record() Record {
	rec := Record{Path: d.path()}
	if at, ok := d.take(uint64(len(rec.TextHash))); ok {
		copy(rec.TextHash[:], d.b[at:])
	}
	c, k := d.uvarint(), d.uvarint()
	rec.Chunks, rec.Tokens = int(c), int64(k)
	return rec
}

//semguard:end file-table
