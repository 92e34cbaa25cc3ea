package cache

import (
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"

	"github.com/zeebo/blake3"
)

// keyDomain separates query keys from every other BLAKE3 use in autorag and
// versions the encoding: change it whenever QueryKey's encoding changes.
const keyDomain = "autorag query key v1"

// QueryKey hashes parts into a query-cache key: BLAKE3-256 over a domain
// string, the number of parts and each part prefixed with its length (all
// little-endian uint64), so no two different part lists share an encoding
// ("ab","c" and "a","bc" differ).
func QueryKey(parts ...string) [32]byte {
	h := blake3.New()
	var n [8]byte
	writeLen := func(v int) {
		binary.LittleEndian.PutUint64(n[:], uint64(v))
		_, _ = h.Write(n[:])
	}
	writeLen(len(keyDomain))
	_, _ = h.WriteString(keyDomain)
	writeLen(len(parts))
	for _, p := range parts {
		writeLen(len(p))
		_, _ = h.WriteString(p)
	}
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// dirName names the directory that holds one identity's embeddings (16
// digest bytes) or one fingerprint's query entries (8 digest bytes): the
// lowercase hex of a prefix of BLAKE3(s). Hashing makes any string a safe,
// fixed-length file name; the full string is stored inside every file and
// checked on read, so a prefix collision is never served.
func dirName(s string, bytes int) string {
	sum := blake3.Sum256([]byte(s))
	return hex.EncodeToString(sum[:bytes])
}

// crc is CRC-32C (hardware-accelerated on amd64 and arm64). hash/crc32
// builds the Castagnoli table once, on first use, so package initialization
// stays empty.
func crc(b []byte) uint32 { return crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)) }
