package mirror

import (
	"encoding/hex"

	"github.com/zeebo/blake3"
)

// Hash is a BLAKE3-256 digest. It names raw source bytes (Entry.RawHash) and
// encoded mirror objects (Entry.TextHash, Store object names).
type Hash [32]byte

// String returns the digest as 64 lowercase hex digits.
func (h Hash) String() string { return hex.EncodeToString(h[:]) }

// HashBytes returns the BLAKE3-256 digest of b.
func HashBytes(b []byte) Hash { return blake3.Sum256(b) }
