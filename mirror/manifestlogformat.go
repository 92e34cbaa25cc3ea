package mirror

import (
	"bytes"
	"encoding/binary"
	"math"
)

//semguard:begin manifest-log

// Manifest log layout (manifest.log beside manifest.bin; see manifestlog.go):
//
//	"ARML" manifestLogVersion
//	[32] checksum of the base manifest file it extends (that file's last 32 bytes)
//	record: uvarint len, body of len bytes, [32] BLAKE3-256 of body
//	body:   uvarint upserts  { string path, uvarint Size, [8] MtimeNS,
//	                           [32] RawHash, [32] TextHash, string parser }...
//	        uvarint removals { string path }...
//
// (string: uvarint len, bytes.) Records apply in order; the first that is
// torn, fails its checksum or does not decode ends the log.
const (
	manifestLogMagic   = "ARML"
	manifestLogVersion = 1
)

func appendLogHeader(b []byte, base Hash) []byte {
	b = append(b, manifestLogMagic...)
	b = append(b, manifestLogVersion)
	return append(b, base[:]...)
}

// encodeLogRecord encodes the change from old to next as one record.
func encodeLogRecord(old, next []Entry) []byte {
	upserts, removed := diffEntries(old, next)
	body := binary.AppendUvarint(nil, uint64(len(upserts)))
	for _, e := range upserts {
		body = appendString(body, e.Path)
		body = binary.AppendUvarint(body, uint64(e.Size))
		body = binary.LittleEndian.AppendUint64(body, uint64(e.MtimeNS))
		body = append(body, e.RawHash[:]...)
		body = append(body, e.TextHash[:]...)
		body = appendString(body, e.Parser)
	}
	body = binary.AppendUvarint(body, uint64(len(removed)))
	for _, p := range removed {
		body = appendString(body, p)
	}
	rec := binary.AppendUvarint(make([]byte, 0, len(body)+binary.MaxVarintLen64+len(Hash{})), uint64(len(body)))
	rec = append(rec, body...)
	sum := HashBytes(body)
	return append(rec, sum[:]...)
}

// decodeLog returns the changes of a log that extends the base with
// checksum base, sorted by path, and the end of its last intact record; 0
// when b does not start with the header of such a log.
func decodeLog(b []byte, base Hash) ([]change, int64) {
	hdr := appendLogHeader(nil, base)
	if !bytes.HasPrefix(b, hdr) {
		return nil, 0
	}
	last := make(map[string]*Entry)
	n := readLogRecords(b[len(hdr):], last)
	return sortedChanges(last), int64(len(hdr) + n)
}

// decodeLogRecord parses one record's body; ok is false when it is
// malformed (a checksum-valid record never is, unless written by a bug).
func decodeLogRecord(rec []byte) (upserts []*Entry, removed []string, ok bool) {
	r := reader{b: rec}
	n := r.count()
	if r.err == nil && n > r.remaining()/minEntryLen {
		r.fail("upsert count exceeds input")
	}
	upserts = make([]*Entry, 0, max(0, n))
	for i := 0; i < n && r.err == nil; i++ {
		e := &Entry{Path: r.string()}
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
		e.Parser = r.string()
		if e.Path == "" {
			r.fail("empty path")
		}
		upserts = append(upserts, e)
	}
	m := r.count()
	for i := 0; i < m && r.err == nil; i++ {
		p := r.string()
		if p == "" {
			r.fail("empty path")
		}
		removed = append(removed, p)
	}
	if r.err != nil || r.remaining() != 0 {
		return nil, nil, false
	}
	return upserts, removed, true
}

//semguard:end manifest-log
