package wordpiece

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
)

// The vocabulary format, little-endian, read in place:
//
//	header (vocabHeader bytes)
//	  [0:8]   magic "AGWPVOC1"
//	  [8:12]  tokens
//	  [12:16] slot bits: the hash index has 1<<bits slots
//	  [16:20] length of the longest token in bytes
//	  [20:24] total length of the vocabulary
//	offsets  tokens+1 uint32: token id's bytes are strings[off[id]:off[id+1]]
//	slots    1<<bits uint32: 0 = empty, else (id+1)<<8 | tag, tag being the
//	         top byte of the token's hash
//	strings  the tokens' bytes, in id order
//
// A token's hash is 64-bit FNV-1a; its home slot is the low bits of the
// hash, collisions probe linearly. The index is at most half full.
const (
	vocabMagic  = "AGWPVOC1"
	vocabHeader = 24
	maxTokens   = 1<<24 - 2
)

// Vocab is a read-only token vocabulary. Its methods do not allocate.
type Vocab struct {
	data    string
	n       int
	mask    uint32
	offsets int // offset of the offsets table
	slots   int // offset of the slots
	strs    int // offset of the strings
	longest int
}

// BuildVocab lays out tokens (token i has id i) in the vocabulary format.
// Tokens must be distinct and non-empty.
func BuildVocab(tokens []string) ([]byte, error) {
	if len(tokens) == 0 || len(tokens) > maxTokens {
		return nil, fmt.Errorf("vocabulary of %d tokens: want 1 to %d", len(tokens), maxTokens)
	}
	bitsN := uint(bits.Len(uint(2*len(tokens) - 1)))
	nslots := 1 << bitsN
	size, longest := 0, 0
	for _, t := range tokens {
		if t == "" {
			return nil, errors.New("vocabulary has an empty token")
		}
		size += len(t)
		longest = max(longest, len(t))
	}
	offsets := vocabHeader
	slots := offsets + 4*(len(tokens)+1)
	strs := slots + 4*nslots
	buf := make([]byte, strs+size)
	copy(buf, vocabMagic)
	le := binary.LittleEndian
	le.PutUint32(buf[8:], uint32(len(tokens)))
	le.PutUint32(buf[12:], uint32(bitsN))
	le.PutUint32(buf[16:], uint32(longest))
	le.PutUint32(buf[20:], uint32(len(buf)))
	at := 0
	mask := uint32(nslots - 1)
	for id, t := range tokens {
		le.PutUint32(buf[offsets+4*id:], uint32(at))
		copy(buf[strs+at:], t)
		at += len(t)
		h := hashString(fnvOffset, t)
		i := uint32(h) & mask
		for ; le.Uint32(buf[slots+4*int(i):]) != 0; i = (i + 1) & mask {
			s := le.Uint32(buf[slots+4*int(i):])
			if tokens[s>>8-1] == t {
				return nil, fmt.Errorf("vocabulary has token %q twice", t)
			}
		}
		le.PutUint32(buf[slots+4*int(i):], uint32(id+1)<<8|uint32(h>>56))
	}
	le.PutUint32(buf[offsets+4*len(tokens):], uint32(at))
	return buf, nil
}

// OpenVocab reads a vocabulary in place. It checks the header and the
// layout's bounds, not every slot.
func OpenVocab(data string) (*Vocab, error) {
	if len(data) < vocabHeader || data[:8] != vocabMagic {
		return nil, errors.New("not a wordpiece vocabulary")
	}
	v := &Vocab{data: data, n: int(u32(data, 8)), longest: int(u32(data, 16))}
	bitsN := u32(data, 12)
	if bitsN > 26 || int(u32(data, 20)) != len(data) || v.n < 1 || v.n > maxTokens {
		return nil, errors.New("wordpiece vocabulary: corrupt header")
	}
	v.mask = 1<<bitsN - 1
	v.offsets = vocabHeader
	v.slots = v.offsets + 4*(v.n+1)
	v.strs = v.slots + 4*(1<<bitsN)
	if v.strs > len(data) || v.strs+int(u32(data, v.slots-4)) != len(data) {
		return nil, errors.New("wordpiece vocabulary: corrupt layout")
	}
	return v, nil
}

// Len is the number of tokens.
func (v *Vocab) Len() int { return v.n }

// Token is the text of token id.
func (v *Vocab) Token(id int) string {
	a, b := u32(v.data, v.offsets+4*id), u32(v.data, v.offsets+4*id+4)
	return v.data[v.strs+int(a) : v.strs+int(b)]
}

// ID returns the id of token s.
func (v *Vocab) ID(s string) (int, bool) {
	return v.lookup(hashString(fnvOffset, s), "", []byte(s))
}

// lookup finds the token prefix+piece whose hash is h.
func (v *Vocab) lookup(h uint64, prefix string, piece []byte) (int, bool) {
	tag := uint32(h >> 56)
	n := len(prefix) + len(piece)
	for i := uint32(h) & v.mask; ; i = (i + 1) & v.mask {
		s := u32(v.data, v.slots+4*int(i))
		if s == 0 {
			return 0, false
		}
		if s&0xff != tag {
			continue
		}
		id := int(s>>8) - 1
		a, b := int(u32(v.data, v.offsets+4*id)), int(u32(v.data, v.offsets+4*id+4))
		t := v.data[v.strs+a : v.strs+b]
		if len(t) == n && t[:len(prefix)] == prefix && t[len(prefix):] == string(piece) {
			return id, true
		}
	}
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func hashString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	return h
}

func hashBytes(h uint64, b []byte) uint64 {
	for _, c := range b {
		h ^= uint64(c)
		h *= fnvPrime
	}
	return h
}

func u32(s string, i int) uint32 {
	_ = s[i+3]
	return uint32(s[i]) | uint32(s[i+1])<<8 | uint32(s[i+2])<<16 | uint32(s[i+3])<<24
}
