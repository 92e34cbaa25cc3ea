package changelog

import (
	"bytes"
	"encoding/binary"

	"github.com/zeebo/blake3"
)

// SumLen is the length of a record's checksum and of a base's.
const SumLen = 32

//semguard:begin change-log

// Header is the start of a log of the given magic and version that extends
// the base whose checksum is base.
func Header(magic string, version byte, base [SumLen]byte) []byte {
	b := make([]byte, 0, len(magic)+1+SumLen)
	b = append(b, magic...)
	b = append(b, version)
	return append(b, base[:]...)
}

// AppendRecord appends body to b as one record: uvarint len(body), body,
// BLAKE3-256 of body.
func AppendRecord(b, body []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(body)))
	b = append(b, body...)
	sum := blake3.Sum256(body)
	return append(b, sum[:]...)
}

// Records calls fn with the body of each record of log, which must start
// with hdr, in order, until a record is torn, fails its checksum or fn
// rejects it (returns false). It returns the end of the last record
// accepted, counted from the start of log; 0 when log does not start with
// hdr.
func Records(log, hdr []byte, fn func(body []byte) bool) int {
	if !bytes.HasPrefix(log, hdr) {
		return 0
	}
	off := len(hdr)
	for off < len(log) {
		n, k := binary.Uvarint(log[off:])
		rest := uint64(len(log) - off - k)
		if k <= 0 || n > rest || rest-n < SumLen {
			break
		}
		body := log[off+k : off+k+int(n)]
		sum := log[off+k+int(n) : off+k+int(n)+SumLen]
		if h := blake3.Sum256(body); !bytes.Equal(h[:], sum) || !fn(body) {
			break
		}
		off += k + int(n) + SumLen
	}
	return off
}

//semguard:end change-log
