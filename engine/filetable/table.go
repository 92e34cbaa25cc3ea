package filetable

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"

	"github.com/zeebo/blake3"

	"github.com/autorag/autorag/mirror"

	"github.com/autorag/autorag/fingerprint"
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

// File is the name of the table in a generation directory.
const File = "files.bin"

const magic = "ARFT1\n"

// ErrCorrupt reports a table whose bytes do not decode or match their
// checksum.
var ErrCorrupt = errors.New("file table corrupt")

// Totals are the table's chunks and analyzed tokens, the sidecar's counts.
func (t Table) Totals() (chunks int, tokens int64) {
	for _, r := range t {
		chunks += r.Chunks
		tokens += r.Tokens
	}
	return chunks, tokens
}

// Encode writes magic, count, records, then a BLAKE3 of all before it.
func (t Table) Encode() []byte {
	var buf bytes.Buffer
	buf.WriteString(magic)
	var tmp [binary.MaxVarintLen64]byte
	put := func(v uint64) { buf.Write(tmp[:binary.PutUvarint(tmp[:], v)]) }
	put(uint64(len(t)))
	for _, r := range t {
		put(uint64(len(r.Path)))
		buf.WriteString(r.Path)
		buf.Write(r.TextHash[:])
		put(uint64(r.Chunks))
		put(uint64(r.Tokens))
	}
	sum := blake3.Sum256(buf.Bytes())
	buf.Write(sum[:])
	return buf.Bytes()
}

// Decode reads an encoded table, checking its magic and checksum.
func Decode(b []byte) (Table, error) {
	if len(b) < len(magic)+32 || string(b[:len(magic)]) != magic {
		return nil, ErrCorrupt
	}
	body, sum := b[:len(b)-32], b[len(b)-32:]
	if got := blake3.Sum256(body); !bytes.Equal(got[:], sum) {
		return nil, ErrCorrupt
	}
	r := bytes.NewReader(body[len(magic):])
	n, err := binary.ReadUvarint(r)
	if err != nil || n > uint64(len(body)) {
		return nil, ErrCorrupt
	}
	t := make(Table, 0, n)
	for i := uint64(0); i < n; i++ {
		rec, err := decodeRecord(r)
		if err != nil {
			return nil, err
		}
		t = append(t, rec)
	}
	return t, nil
}

func decodeRecord(r *bytes.Reader) (Record, error) {
	var rec Record
	l, err := binary.ReadUvarint(r)
	if err != nil || l > uint64(r.Len()) {
		return rec, ErrCorrupt
	}
	p := make([]byte, l)
	if _, err := r.Read(p); err != nil {
		return rec, ErrCorrupt
	}
	rec.Path = string(p)
	if _, err := r.Read(rec.TextHash[:]); err != nil {
		return rec, ErrCorrupt
	}
	c, err1 := binary.ReadUvarint(r)
	k, err2 := binary.ReadUvarint(r)
	if err1 != nil || err2 != nil {
		return rec, ErrCorrupt
	}
	rec.Chunks, rec.Tokens = int(c), int64(k)
	return rec, nil
}

//semguard:end file-table

// Read reads the table at path.
func Read(path string) (Table, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read file table: %w", err)
	}
	t, err := Decode(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// Write writes the table into a generation that is still being
// built: nothing reads it before the commit, and the builder fsyncs the
// whole generation before that, so a plain write is enough (a temp file and
// rename would cost another inode and two fsyncs).
func Write(path string, t Table) error {
	if err := os.WriteFile(path, t.Encode(), fingerprint.FilePerm); err != nil {
		return fmt.Errorf("write file table: %w", err)
	}
	return nil
}

// Merge merges the kept and the new records into one sorted table.
func Merge(keep, added []Record) Table {
	out := make(Table, 0, len(keep)+len(added))
	i, j := 0, 0
	for i < len(keep) || j < len(added) {
		if j == len(added) || (i < len(keep) && keep[i].Path < added[j].Path) {
			out = append(out, keep[i])
			i++
		} else {
			out = append(out, added[j])
			j++
		}
	}
	return out
}
