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
//	        string stamp     (version 2 only: Manifest.Stamp after this record)
//
// (string: uvarint len, bytes.) Records apply in order; the first that is
// torn, fails its checksum or does not decode ends the log. Version 1 logs
// (no stamp) are still read, and Save writes the manifest whole rather
// than append to one; a binary that knows only version 1 sees a version 2
// log as one of another base and ignores it, which costs it the hashing of
// the files changed since the base, nothing else.
const (
	manifestLogMagic   = "ARML"
	manifestLogVersion = 2
)

func appendLogHeader(b []byte, version byte, base Hash) []byte {
	return append(b, changelog.Header(manifestLogMagic, version, base)...)
}

// encodeLogRecord encodes one record of the current version: the upserts
// and removals from the entries as loaded to the ones saved, and stamp.
func encodeLogRecord(upserts []*Entry, removed []string, stamp string) []byte {
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
	body = appendString(body, stamp)
	return changelog.AppendRecord(make([]byte, 0, len(body)+binary.MaxVarintLen64+changelog.SumLen), body)
}

// loadedLog is what decodeLog found in a log.
type loadedLog struct {
	changes []change // sorted by path
	end     int64    // end of the last intact record; 0: not a log of the base
	version byte
	stamp   string // saved with the last intact record
}

// decodeLog decodes a log of either version that extends the base with
// checksum base.
func decodeLog(b []byte, base Hash) loadedLog {
	for _, v := range []byte{manifestLogVersion, 1} {
		if l := decodeLogVersion(b, v, base); l.end > 0 {
			return l
		}
	}
	return loadedLog{}
}

func decodeLogVersion(b []byte, version byte, base Hash) loadedLog {
	l := loadedLog{version: version}
	last := make(map[string]*Entry)
	end := changelog.Records(b, appendLogHeader(nil, version, base), func(rec []byte) bool {
		upserts, removed, stamp, ok := decodeLogRecord(rec, version)
		if !ok {
			return false
		}
		for _, p := range removed {
			last[p] = nil
		}
		for _, e := range upserts {
			last[e.Path] = e
		}
		l.stamp = stamp
		return true
	})
	if end == 0 {
		return loadedLog{}
	}
	l.changes, l.end = sortedChanges(last), int64(end)
	return l
}

// decodeLogRecord parses one record's body; ok is false when it is
// malformed (a checksum-valid record never is, unless written by a bug).
func decodeLogRecord(rec []byte, version byte) (upserts []*Entry, removed []string, stamp string, ok bool) {
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
	if version >= 2 && r.err == nil {
		stamp = r.string()
	}
	if r.err != nil || r.remaining() != 0 {
		return nil, nil, "", false
	}
	return upserts, removed, stamp, true
}

//semguard:end manifest-log
