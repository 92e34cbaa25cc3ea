package cache

import (
	"encoding/binary"
	"errors"
	"io"
	"math"
)

//semguard:begin embedding-cache-format

// Names and constants of the embedding cache format (see doc.go).
const (
	logName        = "vectors.log"
	idxName        = "vectors.idx"
	writerLockName = "writer.lock"

	logMagic  = "ARVECLOG"
	idxMagic  = "ARVECIDX"
	embFormat = 1

	// maxDims bounds a vector's length; a header claiming more is corrupt.
	maxDims = 1 << 16
	// maxIdentity bounds the identity string stored in the log header.
	maxIdentity = 1 << 16

	logFixedLen  = 8 + 4 + 8 + 4 + 4     // magic, version, nonce, identity length, crc
	recHeaderLen = 32 + 4 + 4            // hash, dims, header crc
	idxHeaderLen = 8 + 4 + 8 + 8 + 8 + 4 // magic, version, nonce, sorted count, sorted end, crc
	idxEntryLen  = 32 + 8 + 4 + 4        // hash, offset, dims, crc
)

// recordLen is the length of a log record holding dims floats.
func recordLen(dims uint32) int64 { return recHeaderLen + 4*int64(dims) + 4 }

// logHeader encodes the log file header.
func logHeader(identity string, nonce uint64) []byte {
	b := make([]byte, 0, logFixedLen+len(identity))
	b = append(b, logMagic...)
	b = binary.LittleEndian.AppendUint32(b, embFormat)
	b = binary.LittleEndian.AppendUint64(b, nonce)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(identity)))
	b = append(b, identity...)
	return binary.LittleEndian.AppendUint32(b, crc(b))
}

// readLogHeader reads and checks the header of a log written for identity.
// ok is false when the header is missing, torn, of another version or of
// another identity: the file then holds nothing usable.
func readLogHeader(r io.ReaderAt, identity string) (nonce uint64, hdrLen int64, ok bool, err error) {
	b := make([]byte, logFixedLen+len(identity))
	n, err := r.ReadAt(b, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, 0, false, err
	}
	if n < len(b) {
		return 0, 0, false, nil
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if string(body[:8]) != logMagic || binary.LittleEndian.Uint32(body[8:]) != embFormat ||
		binary.LittleEndian.Uint32(body[20:]) != uint32(len(identity)) ||
		string(body[24:]) != identity || crc(body) != sum {
		return 0, 0, false, nil
	}
	return binary.LittleEndian.Uint64(body[12:]), int64(len(b)), true, nil
}

// appendRecord appends the log record of (h, v) to b.
func appendRecord(b []byte, h [32]byte, v []float32) []byte {
	start := len(b)
	b = append(b, h[:]...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(v)))
	b = binary.LittleEndian.AppendUint32(b, crc(b[start:]))
	for _, f := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
	}
	return binary.LittleEndian.AppendUint32(b, crc(b[start:]))
}

// parseRecordHeader checks the first recHeaderLen bytes of a record.
func parseRecordHeader(b []byte) (h [32]byte, dims uint32, ok bool) {
	dims = binary.LittleEndian.Uint32(b[32:])
	if dims == 0 || dims > maxDims || crc(b[:36]) != binary.LittleEndian.Uint32(b[36:]) {
		return h, 0, false
	}
	copy(h[:], b[:32])
	return h, dims, true
}

// checkRecord reports whether b is the whole, intact record of (h, dims):
// its length, hash and dims match and its checksum holds. The record
// checksum covers the header, so the header's own checksum need not be
// checked again.
func checkRecord(b []byte, h [32]byte, dims uint32) bool {
	if int64(len(b)) != recordLen(dims) || [32]byte(b) != h || binary.LittleEndian.Uint32(b[32:]) != dims {
		return false
	}
	end := len(b) - 4
	return crc(b[:end]) == binary.LittleEndian.Uint32(b[end:])
}

// decodeRecord verifies a whole record read for (h, dims) and returns its
// vector. Any mismatch (hash, length, checksum) reports false.
func decodeRecord(b []byte, h [32]byte, dims uint32) ([]float32, bool) {
	if !checkRecord(b, h, dims) {
		return nil, false
	}
	v := make([]float32, dims)
	p := b[recHeaderLen : len(b)-4]
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(p[4*i:]))
	}
	return v, true
}

// recordValid reports whether b is one complete, intact record.
func recordValid(b []byte) bool {
	if len(b) < recHeaderLen {
		return false
	}
	h, dims, ok := parseRecordHeader(b)
	return ok && checkRecord(b, h, dims)
}

// idxHeader encodes the index file header. nonce ties the index to one
// log; the first sortedN entries are sorted by hash and index every record
// of the log before sortedEnd.
func idxHeader(nonce uint64, sortedN int, sortedEnd int64) []byte {
	b := make([]byte, 0, idxHeaderLen)
	b = append(b, idxMagic...)
	b = binary.LittleEndian.AppendUint32(b, embFormat)
	b = binary.LittleEndian.AppendUint64(b, nonce)
	b = binary.LittleEndian.AppendUint64(b, uint64(sortedN))
	b = binary.LittleEndian.AppendUint64(b, uint64(sortedEnd))
	return binary.LittleEndian.AppendUint32(b, crc(b))
}

// parseIdxHeader checks that b starts with the header of the index of the
// log with the given nonce, and returns the sorted region's length in bytes
// (which an index file of size bytes holds) and end.
func parseIdxHeader(b []byte, size int64, nonce uint64) (sortedLen int, sortedEnd int64, ok bool) {
	if len(b) < idxHeaderLen || string(b[:8]) != idxMagic ||
		binary.LittleEndian.Uint32(b[8:]) != embFormat ||
		binary.LittleEndian.Uint64(b[12:]) != nonce ||
		crc(b[:idxHeaderLen-4]) != binary.LittleEndian.Uint32(b[idxHeaderLen-4:]) {
		return 0, 0, false
	}
	n := binary.LittleEndian.Uint64(b[20:])
	if size < idxHeaderLen || n > uint64(size-idxHeaderLen)/idxEntryLen {
		return 0, 0, false
	}
	return int(n) * idxEntryLen, int64(binary.LittleEndian.Uint64(b[28:])), true
}

// fullIndex encodes an index file whose entries are all sorted.
func fullIndex(nonce uint64, end int64, entries []hashSlot) []byte {
	sorted := sortedEntries(entries)
	return append(idxHeader(nonce, len(entries), end), sorted...)
}

// appendIdxEntry appends the index entry of a record at off to b.
func appendIdxEntry(b []byte, h [32]byte, e slot) []byte {
	start := len(b)
	b = append(b, h[:]...)
	b = binary.LittleEndian.AppendUint64(b, uint64(e.off))
	b = binary.LittleEndian.AppendUint32(b, e.dims)
	return binary.LittleEndian.AppendUint32(b, crc(b[start:]))
}

// parseIdxEntry checks one idxEntryLen-byte index entry.
func parseIdxEntry(b []byte) (h [32]byte, e slot, ok bool) {
	if crc(b[:44]) != binary.LittleEndian.Uint32(b[44:]) {
		return h, e, false
	}
	copy(h[:], b[:32])
	e = slot{off: int64(binary.LittleEndian.Uint64(b[32:])), dims: binary.LittleEndian.Uint32(b[40:])}
	if e.off < 0 || e.dims == 0 || e.dims > maxDims {
		return h, e, false
	}
	return h, e, true
}

//semguard:end embedding-cache-format
