package filetable

import (
	"encoding/binary"
	"slices"
	"strings"

	"github.com/autorag/autorag/internal/changelog"
)

// LogFile is the name of the table's change log in a generation directory.
const LogFile = "files.log"

// logLimit is the largest log written beside a base of baseSize bytes: an
// eighth of the base (so loading reads at most that much more than the base
// alone), at least 4 KiB, at most 64 KiB. Each generation copies its base
// generation's log, so the cap bounds what one edit writes however large
// the corpus; a 100,000-file base (4.7 MB) is rewritten about every 900
// edits of one file.
func logLimit(baseSize int) int { return min(max(baseSize/8, 4<<10), 64<<10) }

//semguard:begin file-table-log

// File table log layout (files.log beside files.bin), framed by
// internal/changelog:
//
//	"ARFL" logVersion
//	[32] checksum of the files.bin it extends (that file's last 32 bytes)
//	record: uvarint len, body of len bytes, [32] BLAKE3-256 of body
//	body:   uvarint upserts  { uvarint len, path, [32] TextHash, uvarint Chunks, uvarint Tokens }...
//	        uvarint removals { uvarint len, path }...
//
// Records apply in order. Unlike the mirror's manifest log, which is only a
// cache of what a scan would find, the table is what the generation holds:
// a log that does not decode to its end makes the table corrupt.
const (
	logMagic   = "ARFL"
	logVersion = 1
)

// logHeader is the header of a log that extends the base whose checksum
// (its last 32 bytes) is sum.
func logHeader(sum [changelog.SumLen]byte) []byte {
	return changelog.Header(logMagic, logVersion, sum)
}

// encodeChange encodes one record: upserts replace or add records by path,
// removed paths leave the table.
func encodeChange(upserts []Record, removed []string) []byte {
	body := binary.AppendUvarint(nil, uint64(len(upserts)))
	for _, r := range upserts {
		body = appendRecord(body, r)
	}
	body = binary.AppendUvarint(body, uint64(len(removed)))
	for _, p := range removed {
		body = binary.AppendUvarint(body, uint64(len(p)))
		body = append(body, p...)
	}
	return changelog.AppendRecord(nil, body)
}

// readLog decodes the records of log, which must extend the base whose
// checksum is sum, into each changed path's last state (nil: removed).
func readLog(log []byte, sum [changelog.SumLen]byte) (map[string]*Record, error) {
	last := make(map[string]*Record)
	bad, records := false, 0
	end := changelog.Records(log, logHeader(sum), func(body []byte) bool {
		bad = !decodeChange(body, last)
		records++
		return !bad
	})
	// A log is written with a record: one with none lost it.
	if records == 0 || end != len(log) || bad {
		return nil, ErrCorrupt
	}
	return last, nil
}

// decodeChange decodes one record's body into last (path → its record,
// nil when removed); false when the body is malformed.
func decodeChange(body []byte, last map[string]*Record) bool {
	d := decoder{b: body, s: string(body), ok: true}
	n := d.uvarint()
	if n > uint64(len(body)) {
		return false
	}
	for i := uint64(0); i < n && d.ok; i++ {
		r := d.record()
		last[r.Path] = &r
	}
	m := d.uvarint()
	if m > uint64(len(body)) {
		return false
	}
	for i := uint64(0); i < m && d.ok; i++ {
		last[d.path()] = nil
	}
	return d.ok && d.off == len(body)
}

// apply merges the changes of last into t (sorted) and returns the
// result: t itself, changed in place, when every change replaces a record
// (the usual edit), else a new table.
func apply(t Table, last map[string]*Record) Table {
	if len(last) == 0 || replaceInPlace(t, last) {
		return t
	}
	paths := make([]string, 0, len(last))
	for p := range last {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	out := make(Table, 0, len(t)+len(paths))
	i := 0
	for _, p := range paths {
		for i < len(t) && t[i].Path < p {
			out = append(out, t[i])
			i++
		}
		if i < len(t) && t[i].Path == p {
			i++
		}
		if r := last[p]; r != nil {
			out = append(out, *r)
		}
	}
	return append(out, t[i:]...)
}

// replaceInPlace applies changes that all replace existing records, and
// reports false, having changed nothing, when one adds or removes a path.
func replaceInPlace(t Table, last map[string]*Record) bool {
	at := make([]int, 0, len(last))
	for p, r := range last {
		i, ok := slices.BinarySearchFunc(t, p, func(r Record, p string) int { return strings.Compare(r.Path, p) })
		if !ok || r == nil {
			return false
		}
		at = append(at, i)
	}
	for _, i := range at {
		t[i] = *last[t[i].Path]
	}
	return true
}

//semguard:end file-table-log

// changes turns a change set's upserts and removals into apply's map.
func changes(upserts []Record, removed []string) map[string]*Record {
	last := make(map[string]*Record, len(upserts)+len(removed))
	for _, p := range removed {
		last[p] = nil
	}
	for i := range upserts {
		last[upserts[i].Path] = &upserts[i]
	}
	return last
}
