package mirror

import (
	"encoding/binary"

	"github.com/autorag/autorag/internal/changelog"
)

//semguard:begin manifest-log

// Manifest log layout (manifest.log beside manifest.bin; see manifestlog.go),
// framed by internal/changelog:
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
	return append(b, changelog.Header(manifestLogMagic, manifestLogVersion, base)...)
}

// encodeLogRecord encodes the change from old to next as one record.
func encodeLogRecord(old, next []Entry) []byte {
	upserts, removed := diffEntries(old, next)
	body := binary.AppendUvarint(nil, uint64(len(upserts)))
	for _, e := range upserts {
		body = appendString(body, e.Path)
		body = appendEntryFields(body, e)
		body = appendString(body, e.Parser)
	}
	body = binary.AppendUvarint(body, uint64(len(removed)))
	for _, p := range removed {
		body = appendString(body, p)
	}
	return changelog.AppendRecord(make([]byte, 0, len(body)+binary.MaxVarintLen64+changelog.SumLen), body)
}

// decodeLog returns the changes of a log that extends the base with
// checksum base, sorted by path, and the end of its last intact record; 0
// when b does not start with the header of such a log.
func decodeLog(b []byte, base Hash) ([]change, int64) {
	last := make(map[string]*Entry)
	end := changelog.Records(b, appendLogHeader(nil, base), func(rec []byte) bool {
		upserts, removed, ok := decodeLogRecord(rec)
		for _, p := range removed {
			last[p] = nil
		}
		for _, e := range upserts {
			last[e.Path] = e
		}
		return ok
	})
	if end == 0 {
		return nil, 0
	}
	return sortedChanges(last), int64(end)
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
		decodeEntryFields(&r, e)
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
