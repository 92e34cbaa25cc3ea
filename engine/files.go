package engine

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

// fileRecord is what a generation holds about one source file.
type fileRecord struct {
	Path     string
	TextHash mirror.Hash
	Chunks   int   // chunk IDs are "<path>\x00<0..Chunks-1>"
	Tokens   int64 // analyzed tokens over all of the file's chunks
}

// fileTable is a generation's files, sorted by path.
type fileTable []fileRecord

const fileTableMagic = "ARFT1\n"

var errFileTableCorrupt = errors.New("file table corrupt")

func (t fileTable) totals() (chunks int, tokens int64) {
	for _, r := range t {
		chunks += r.Chunks
		tokens += r.Tokens
	}
	return chunks, tokens
}

// encode writes magic, count, records, then a BLAKE3 of all before it.
func (t fileTable) encode() []byte {
	var buf bytes.Buffer
	buf.WriteString(fileTableMagic)
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

func decodeFileTable(b []byte) (fileTable, error) {
	if len(b) < len(fileTableMagic)+32 || string(b[:len(fileTableMagic)]) != fileTableMagic {
		return nil, errFileTableCorrupt
	}
	body, sum := b[:len(b)-32], b[len(b)-32:]
	if got := blake3.Sum256(body); !bytes.Equal(got[:], sum) {
		return nil, errFileTableCorrupt
	}
	r := bytes.NewReader(body[len(fileTableMagic):])
	n, err := binary.ReadUvarint(r)
	if err != nil || n > uint64(len(body)) {
		return nil, errFileTableCorrupt
	}
	t := make(fileTable, 0, n)
	for i := uint64(0); i < n; i++ {
		rec, err := decodeFileRecord(r)
		if err != nil {
			return nil, err
		}
		t = append(t, rec)
	}
	return t, nil
}

func decodeFileRecord(r *bytes.Reader) (fileRecord, error) {
	var rec fileRecord
	l, err := binary.ReadUvarint(r)
	if err != nil || l > uint64(r.Len()) {
		return rec, errFileTableCorrupt
	}
	p := make([]byte, l)
	if _, err := r.Read(p); err != nil {
		return rec, errFileTableCorrupt
	}
	rec.Path = string(p)
	if _, err := r.Read(rec.TextHash[:]); err != nil {
		return rec, errFileTableCorrupt
	}
	c, err1 := binary.ReadUvarint(r)
	k, err2 := binary.ReadUvarint(r)
	if err1 != nil || err2 != nil {
		return rec, errFileTableCorrupt
	}
	rec.Chunks, rec.Tokens = int(c), int64(k)
	return rec, nil
}

//semguard:end file-table

func readFileTable(path string) (fileTable, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read file table: %w", err)
	}
	t, err := decodeFileTable(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// writeFileTable writes the table into a generation that is still being
// built: nothing reads it before the commit, and the builder fsyncs the
// whole generation before that, so a plain write is enough (a temp file and
// rename would cost another inode and two fsyncs).
func writeFileTable(path string, t fileTable) error {
	if err := os.WriteFile(path, t.encode(), fingerprint.FilePerm); err != nil {
		return fmt.Errorf("write file table: %w", err)
	}
	return nil
}
