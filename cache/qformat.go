package cache

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
)

// Names and constants of the query cache format (see doc.go).
const (
	entryExt  = ".qc"
	lockName  = ".lock"
	usageName = ".usage"

	entryMagic   = "ARQC"
	usageMagic   = "ARQU"
	queryFormat  = 1
	entryHdrLen  = 4 + 4 + 32 + 4 + 4 // magic, version, key, fingerprint length, value length
	usageLen     = 4 + 4 + 8 + 8 + 4  // magic, version, total, since scan, crc
	maxFPLen     = 4096
	maxEntrySize = math.MaxUint32
)

// encodeEntry encodes one query-cache entry file.
func encodeEntry(fp string, key [32]byte, value []byte) ([]byte, error) {
	if len(fp) > maxFPLen {
		return nil, fmt.Errorf("query cache: fingerprint longer than %d bytes", maxFPLen)
	}
	n := entryHdrLen + len(fp) + len(value) + 4
	if int64(n) > maxEntrySize {
		return nil, fmt.Errorf("query cache: value of %d bytes is too large", len(value))
	}
	b := make([]byte, 0, n)
	b = append(b, entryMagic...)
	b = binary.LittleEndian.AppendUint32(b, queryFormat)
	b = append(b, key[:]...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(fp)))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(value)))
	b = append(b, fp...)
	b = append(b, value...)
	return binary.LittleEndian.AppendUint32(b, crc(b)), nil
}

// decodeEntry returns the value of an entry file, or false unless the file
// is complete, intact, of this format, and stored for exactly (fp, key).
func decodeEntry(b []byte, fp string, key [32]byte) ([]byte, bool) {
	if len(b) < entryHdrLen+4 || string(b[:4]) != entryMagic ||
		binary.LittleEndian.Uint32(b[4:]) != queryFormat {
		return nil, false
	}
	fpLen := int(binary.LittleEndian.Uint32(b[40:]))
	valLen := int(binary.LittleEndian.Uint32(b[44:]))
	if fpLen != len(fp) || int64(len(b)) != int64(entryHdrLen)+int64(fpLen)+int64(valLen)+4 {
		return nil, false
	}
	end := len(b) - 4
	if crc(b[:end]) != binary.LittleEndian.Uint32(b[end:]) {
		return nil, false
	}
	if !bytes.Equal(b[8:40], key[:]) || string(b[entryHdrLen:entryHdrLen+fpLen]) != fp {
		return nil, false
	}
	return b[entryHdrLen+fpLen : end : end], true
}

// usage is the query cache's running account of its entry bytes, kept in
// .usage under the cache lock.
type usage struct {
	total     int64 // bytes of entry files, never less than the truth (see Put)
	sinceScan int64 // bytes Put since the last directory scan
}

func (u usage) encode() []byte {
	b := make([]byte, 0, usageLen)
	b = append(b, usageMagic...)
	b = binary.LittleEndian.AppendUint32(b, queryFormat)
	b = binary.LittleEndian.AppendUint64(b, uint64(u.total))
	b = binary.LittleEndian.AppendUint64(b, uint64(u.sinceScan))
	return binary.LittleEndian.AppendUint32(b, crc(b))
}

func decodeUsage(b []byte) (usage, bool) {
	if len(b) != usageLen || string(b[:4]) != usageMagic ||
		binary.LittleEndian.Uint32(b[4:]) != queryFormat ||
		crc(b[:usageLen-4]) != binary.LittleEndian.Uint32(b[usageLen-4:]) {
		return usage{}, false
	}
	u := usage{total: int64(binary.LittleEndian.Uint64(b[8:])), sinceScan: int64(binary.LittleEndian.Uint64(b[16:]))}
	return u, u.total >= 0 && u.sinceScan >= 0
}
