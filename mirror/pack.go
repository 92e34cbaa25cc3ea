package mirror

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/golang/snappy"

	"github.com/autorag/autorag/fingerprint"
)

//semguard:begin pack-format

// Pack file layout (fixed-size integers little-endian):
//
//	"ARPK" 0x02                             header: magic, version
//	records, in the order they were Put:
//	        32 bytes  object hash
//	        uvarint   record body length
//	        the body: the object (Doc.Encode() bytes), snappy-compressed
//	        (block format); version 0x01 packs, which older binaries
//	        wrote and which are still read, hold the object itself
//	index, one entry per object, hashes strictly increasing:
//	        32 bytes  object hash
//	        8 bytes   offset of the object's record
//	        8 bytes   record body length
//	tail (packTailLen bytes):
//	        8 bytes   entry count
//	        32 bytes  BLAKE3-256 of the index and the entry count
//	        "ARPKIDX" 0x01                  magic, version
//
// Opening a pack reads its header and tail. Lookups search the index in
// the file (packindex.go) until one finds its hash or a pack has served
// lazyLookups of them; then the index is read whole and checked. A pack
// whose tail, index or checksum is wrong is not read at all (an index that
// fails when read later makes the pack unreadable from then on); a record
// is verified when it is read (its hash and length must match the index and
// its object must hash to its name).
const (
	packMagic     = "ARPK\x02"    // header; the last byte is the version
	packMagicV1   = "ARPK\x01"    // header of a pack of uncompressed objects
	packTailMagic = "ARPKIDX\x01" // ends the tail; the last byte is the version
	packHeaderLen = len(packMagic)
	packEntryLen  = len(Hash{}) + 8 + 8
	packTailLen   = 8 + len(Hash{}) + len(packTailMagic)
	packBufSize   = 256 << 10 // write buffer of a pack being written
)

// packEntry locates one object in a pack.
type packEntry struct {
	hash Hash
	off  int64 // offset of the record
	size int64 // length of the record's body (the compressed object)
}

// recordLen is the length of a record: its hash, its length and its bytes.
func (e packEntry) recordLen() int64 {
	return int64(len(e.hash)+uvarintLen(uint64(e.size))) + e.size
}

// uvarintLen is the length of v as a uvarint.
func uvarintLen(v uint64) int {
	n := 1
	for ; v >= 0x80; v >>= 7 {
		n++
	}
	return n
}

//semguard:end pack-format

// pack is a published pack file, open for reading. Its index is read and
// checked when first needed (packindex.go).
type pack struct {
	name  string // base name in the store directory
	f     *os.File
	size  int64
	count int    // entries in the index, from the tail
	tail  []byte // the tail as read, which the index must match
	plain bool   // a version 0x01 pack: its objects are not compressed
	packIndex
}

// searchEntries returns the entry of object h in entries (sorted).
func searchEntries(entries []packEntry, h Hash) (packEntry, bool) {
	i, ok := slices.BinarySearchFunc(entries, h, func(e packEntry, h Hash) int {
		return bytes.Compare(e.hash[:], h[:])
	})
	if !ok {
		return packEntry{}, false
	}
	return entries[i], true
}

// openPack opens the pack at path and loads its index. A pack that is
// truncated or damaged yields an error wrapping ErrCorrupt.
func openPack(path, name string) (*pack, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open pack %s: %w", name, err)
	}
	p, err := loadPack(f, name)
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("open pack %s: %w", name, err)
	}
	return p, nil
}

//semguard:begin pack-read

// loadPack checks f's header and tail; the index is read when needed.
func loadPack(f *os.File, name string) (*pack, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	if size < int64(packHeaderLen+packTailLen) {
		return nil, fmt.Errorf("%d bytes, too short: %w", size, ErrCorrupt)
	}
	head := make([]byte, packHeaderLen)
	if err := readFull(f, head, 0); err != nil {
		return nil, err
	}
	if string(head) != packMagic && string(head) != packMagicV1 {
		return nil, fmt.Errorf("bad header: %w", ErrCorrupt)
	}
	tail := make([]byte, packTailLen)
	if err := readFull(f, tail, size-int64(packTailLen)); err != nil {
		return nil, err
	}
	count, err := checkPackTail(size, tail)
	if err != nil {
		return nil, err
	}
	return &pack{name: name, f: f, size: size, count: count, tail: tail, plain: string(head) == packMagicV1}, nil
}

// checkPackTail checks the tail of a pack of size bytes and returns its
// entry count.
func checkPackTail(size int64, tail []byte) (int, error) {
	if string(tail[8+len(Hash{}):]) != packTailMagic {
		return 0, fmt.Errorf("bad tail: %w", ErrCorrupt)
	}
	count := binary.LittleEndian.Uint64(tail)
	room := uint64(size) - uint64(packHeaderLen+packTailLen)
	if count > room/uint64(packEntryLen) {
		return 0, fmt.Errorf("index of %d entries does not fit: %w", count, ErrCorrupt)
	}
	return int(count), nil
}

// indexStart is where the index of a pack of size bytes and count entries
// starts.
func indexStart(size int64, count int) int64 {
	return size - int64(packTailLen) - int64(count)*int64(packEntryLen)
}

// readPackIndex reads and checks the index that tail describes.
func readPackIndex(f *os.File, size int64, tail []byte) ([]packEntry, error) {
	count, err := checkPackTail(size, tail)
	if err != nil {
		return nil, err
	}
	indexStart := indexStart(size, count)
	b := make([]byte, int(count)*packEntryLen+8) // the index and the count
	if err := readFull(f, b, indexStart); err != nil {
		return nil, err
	}
	if HashBytes(b) != Hash(tail[8:8+len(Hash{})]) {
		return nil, fmt.Errorf("index checksum mismatch: %w", ErrCorrupt)
	}
	return decodePackIndex(b[:len(b)-8], indexStart)
}

// decodePackIndex parses index entries, checking that hashes increase and
// that every record lies between the header and the index.
func decodePackIndex(b []byte, indexStart int64) ([]packEntry, error) {
	entries := make([]packEntry, len(b)/packEntryLen)
	for i := range entries {
		r := b[i*packEntryLen:]
		e := packEntry{hash: Hash(r[:32])}
		off, size := binary.LittleEndian.Uint64(r[32:]), binary.LittleEndian.Uint64(r[40:])
		if off < uint64(packHeaderLen) || off > uint64(indexStart) || size > uint64(indexStart) {
			return nil, fmt.Errorf("index entry %d out of range: %w", i, ErrCorrupt)
		}
		e.off, e.size = int64(off), int64(size)
		if e.off+e.recordLen() > indexStart {
			return nil, fmt.Errorf("index entry %d out of range: %w", i, ErrCorrupt)
		}
		if i > 0 && bytes.Compare(entries[i-1].hash[:], e.hash[:]) >= 0 {
			return nil, fmt.Errorf("index not sorted at entry %d: %w", i, ErrCorrupt)
		}
		entries[i] = e
	}
	return entries, nil
}

// readFull reads len(b) bytes at off; a short read means the file is
// truncated.
func readFull(r io.ReaderAt, b []byte, off int64) error {
	_, err := r.ReadAt(b, off)
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("truncated: %w", ErrCorrupt)
	}
	return err
}

// readRecord reads the record e and returns its object, decompressed
// unless plain (a version 0x01 pack), after checking the record's hash and
// length against e and the object's hash against its name. A damaged
// record yields an error wrapping ErrCorrupt.
func readRecord(r io.ReaderAt, e packEntry, plain bool) ([]byte, error) {
	b := make([]byte, e.recordLen())
	if err := readFull(r, b, e.off); err != nil {
		return nil, err
	}
	if Hash(b[:32]) != e.hash {
		return nil, fmt.Errorf("record names another object: %w", ErrCorrupt)
	}
	n, k := binary.Uvarint(b[32:])
	if k != uvarintLen(uint64(e.size)) || n != uint64(e.size) {
		return nil, fmt.Errorf("record length mismatch: %w", ErrCorrupt)
	}
	obj := b[32+k:]
	if !plain {
		var err error
		if obj, err = snappy.Decode(nil, obj); err != nil {
			return nil, fmt.Errorf("decompress record: %v: %w", err, ErrCorrupt)
		}
	}
	if HashBytes(obj) != e.hash {
		return nil, fmt.Errorf("content hash mismatch: %w", ErrCorrupt)
	}
	return obj, nil
}

//semguard:end pack-read

// packWriter appends records to a new pack in a temporary file. It is not
// safe for concurrent use (Store serializes it).
type packWriter struct {
	f       *fingerprint.AtomicFile
	w       *bufio.Writer
	off     int64 // bytes written so far, buffered or not
	entries map[Hash]packEntry
}

// newPackWriter starts a pack in a temporary file in dir.
func newPackWriter(dir string) (*packWriter, error) {
	f, err := createPackTemp(dir)
	if err != nil {
		return nil, err
	}
	w := bufio.NewWriterSize(f, packBufSize)
	_, _ = w.WriteString(packMagic) // a bufio error is sticky: add or finish reports it
	return &packWriter{f: f, w: w, off: int64(packHeaderLen), entries: make(map[Hash]packEntry)}, nil
}

//semguard:begin pack-write

// add appends object b named h, compressed.
func (pw *packWriter) add(h Hash, b []byte) error {
	b = snappy.Encode(nil, b)
	var head [32 + binary.MaxVarintLen64]byte
	copy(head[:], h[:])
	n := 32 + binary.PutUvarint(head[32:], uint64(len(b)))
	if _, err := pw.w.Write(head[:n]); err != nil {
		return fmt.Errorf("append to pack: %w", err)
	}
	if _, err := pw.w.Write(b); err != nil {
		return fmt.Errorf("append to pack: %w", err)
	}
	pw.entries[h] = packEntry{hash: h, off: pw.off, size: int64(len(b))}
	pw.off += int64(n + len(b))
	return nil
}

// lookup returns the entry of object h if it was added.
func (pw *packWriter) lookup(h Hash) (packEntry, bool) {
	e, ok := pw.entries[h]
	return e, ok
}

// read returns the object e added earlier, flushing the buffer first if
// the record is still in it.
func (pw *packWriter) read(e packEntry) ([]byte, error) {
	if flushed := pw.off - int64(pw.w.Buffered()); e.off+e.recordLen() > flushed {
		if err := pw.w.Flush(); err != nil {
			return nil, fmt.Errorf("flush pack: %w", err)
		}
	}
	return readRecord(pw.f.File, e, false)
}

// finish writes the index and the tail and publishes the pack in dir (see
// publishPack). The file stays open for reading as the returned pack. On
// error the temporary file is removed.
func (pw *packWriter) finish(dir string) (*pack, error) {
	entries := make([]packEntry, 0, len(pw.entries))
	for _, e := range pw.entries {
		entries = append(entries, e)
	}
	slices.SortFunc(entries, func(a, b packEntry) int { return bytes.Compare(a.hash[:], b.hash[:]) })
	index := encodePackIndex(entries)
	_, err := pw.w.Write(index)
	if err == nil {
		err = pw.w.Flush()
	}
	var name string
	if err == nil {
		name, err = publishPack(pw.f, dir)
	}
	if err != nil && name == "" {
		_ = pw.abort()
		return nil, fmt.Errorf("finish pack: %w", err)
	}
	p := &pack{name: name, f: pw.f.File, size: pw.off + int64(len(index)), count: len(entries)}
	p.setEntries(entries)
	if err != nil { // published, but the directory fsync failed
		return p, fmt.Errorf("finish pack: %w", err)
	}
	return p, nil
}

// encodePackIndex returns the index and the tail for entries (sorted).
func encodePackIndex(entries []packEntry) []byte {
	b := make([]byte, 0, len(entries)*packEntryLen+packTailLen)
	for _, e := range entries {
		b = append(b, e.hash[:]...)
		b = binary.LittleEndian.AppendUint64(b, uint64(e.off))
		b = binary.LittleEndian.AppendUint64(b, uint64(e.size))
	}
	b = binary.LittleEndian.AppendUint64(b, uint64(len(entries)))
	sum := HashBytes(b)
	b = append(b, sum[:]...)
	return append(b, packTailMagic...)
}

//semguard:end pack-write

// abort closes and removes the temporary file.
func (pw *packWriter) abort() error {
	pw.f.Abort()
	return nil
}
