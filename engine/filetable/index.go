package filetable

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/zeebo/blake3"

	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/internal/changelog"
	"github.com/autorag/autorag/mirror"
)

// IndexFile is the name of the base's index in a generation directory:
// where each block of records starts in files.bin, so that a refresh that
// changed a few files reads the blocks of those files, not the whole base.
// It is written with every base and linked with it. A base without one
// (written by an older version) is read whole, and the next base written
// gets one; an older version ignores it.
const IndexFile = "files.idx"

// blockRecords is the number of records one index entry covers: about
// 3 KB of files.bin for the generated corpus's paths.
const blockRecords = 64

// errNoIndex reports a base without a usable index (none, or not the
// index of this base): the caller reads the base whole instead.
var errNoIndex = errors.New("file table has no index")

//semguard:begin file-table-index

// Index layout (files.idx beside files.bin):
//
//	"ARFI" indexVersion
//	[32] checksum of the files.bin it indexes (that file's last 32 bytes)
//	uvarint size of that files.bin
//	uvarint records, uvarint blocks
//	block: uvarint offset of its first record, uvarint len, first path,
//	       [32] BLAKE3-256 of the block's bytes
//	[32] BLAKE3-256 of every byte before it
//
// Block i holds records i*blockRecords up to the next block's; the last
// ends where the base's checksum begins.
const (
	indexMagic   = "ARFI"
	indexVersion = 1
)

// index is a decoded files.idx.
type index struct {
	baseSum  [changelog.SumLen]byte
	baseSize int64
	records  int
	starts   []int64 // block offsets, then the end of the last block
	first    []string
	sums     [][32]byte
}

// buildIndex indexes an encoded base that Decode accepts.
func buildIndex(base []byte) []byte {
	body := base[:len(base)-changelog.SumLen]
	d := decoder{b: body, off: len(magic), ok: true}
	n := int(d.uvarint())
	b := append([]byte(indexMagic), indexVersion)
	b = append(b, base[len(body):]...)
	b = binary.AppendUvarint(b, uint64(len(base)))
	b = binary.AppendUvarint(b, uint64(n))
	b = binary.AppendUvarint(b, uint64((n+blockRecords-1)/blockRecords))
	for i := 0; i < n; i += blockRecords {
		start := d.off
		l := d.uvarint()
		first := body[d.off : d.off+int(l)]
		d.off = start
		for j := i; j < min(i+blockRecords, n); j++ {
			d.skipRecord()
		}
		b = binary.AppendUvarint(b, uint64(start))
		b = binary.AppendUvarint(b, uint64(len(first)))
		b = append(b, first...)
		sum := blake3.Sum256(body[start:d.off])
		b = append(b, sum[:]...)
	}
	sum := blake3.Sum256(b)
	return append(b, sum[:]...)
}

// decodeIndex reads an encoded index, checking its checksum and that its
// blocks are in order and within the base it names.
func decodeIndex(b []byte) (*index, error) {
	if len(b) < len(indexMagic)+1+2*changelog.SumLen || string(b[:len(indexMagic)]) != indexMagic || b[len(indexMagic)] != indexVersion {
		return nil, ErrCorrupt
	}
	body := b[:len(b)-changelog.SumLen]
	if sum := blake3.Sum256(body); !bytes.Equal(sum[:], b[len(body):]) {
		return nil, ErrCorrupt
	}
	x := &index{}
	copy(x.baseSum[:], body[len(indexMagic)+1:])
	d := decoder{b: body, s: string(body), off: len(indexMagic) + 1 + changelog.SumLen, ok: true}
	x.baseSize, x.records = int64(d.uvarint()), int(d.uvarint())
	blocks := d.uvarint()
	if !d.ok || blocks > uint64(len(body)) || uint64(x.records) > blocks*blockRecords || x.baseSize < int64(len(magic)+changelog.SumLen) {
		return nil, ErrCorrupt
	}
	for range blocks {
		x.starts = append(x.starts, int64(d.uvarint()))
		x.first = append(x.first, d.path())
		var s [32]byte
		if at, ok := d.take(32); ok {
			copy(s[:], d.b[at:])
		}
		x.sums = append(x.sums, s)
	}
	x.starts = append(x.starts, x.baseSize-changelog.SumLen)
	if !d.ok || d.off != len(body) || !slices.IsSorted(x.starts) || !slices.IsSorted(x.first) {
		return nil, ErrCorrupt
	}
	return x, nil
}

// lookup finds path in the base f (the one x indexes), reading only the
// block that would hold it and checking that block's checksum.
func (x *index) lookup(f io.ReaderAt, path string) (Record, bool, error) {
	i, found := slices.BinarySearch(x.first, path)
	if !found {
		i-- // the block whose first path is the last one before path
	}
	if i < 0 {
		return Record{}, false, nil
	}
	b := make([]byte, x.starts[i+1]-x.starts[i])
	if _, err := f.ReadAt(b, x.starts[i]); err != nil {
		return Record{}, false, fmt.Errorf("read file table: %w", err)
	}
	if blake3.Sum256(b) != x.sums[i] {
		return Record{}, false, ErrCorrupt
	}
	d := decoder{b: b, s: string(b), ok: true}
	for j := i * blockRecords; j < min((i+1)*blockRecords, x.records) && d.ok; j++ {
		if r := d.record(); d.ok && r.Path == path {
			return r, true, nil
		}
	}
	if !d.ok || d.off != len(b) {
		return Record{}, false, ErrCorrupt
	}
	return Record{}, false, nil
}

//semguard:end file-table-index

// skipRecord moves past one record without decoding it.
func (d *decoder) skipRecord() {
	d.take(d.uvarint())
	d.take(uint64(len(mirror.Hash{})))
	d.uvarint()
	d.uvarint()
}

// writeIndex writes the index of base (a table Decode accepts) into dir.
func writeIndex(dir string, base []byte) error {
	if err := os.WriteFile(filepath.Join(dir, IndexFile), buildIndex(base), fingerprint.FilePerm); err != nil {
		return fmt.Errorf("write file table index: %w", err)
	}
	return nil
}

// openIndex reads the index in dir and checks it is that of the base f
// (its checksum and size).
func openIndex(dir string, f *os.File) (*index, error) {
	b, err := os.ReadFile(filepath.Join(dir, IndexFile))
	if err != nil {
		return nil, errors.Join(errNoIndex, err)
	}
	x, err := decodeIndex(b)
	if err != nil {
		return nil, errors.Join(errNoIndex, err)
	}
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	var sum [changelog.SumLen]byte
	if fi.Size() != x.baseSize {
		return nil, errNoIndex
	}
	if _, err := f.ReadAt(sum[:], fi.Size()-changelog.SumLen); err != nil {
		return nil, fmt.Errorf("read file table: %w", err)
	}
	if sum != x.baseSum {
		return nil, errNoIndex
	}
	return x, nil
}
