package unigram

import (
	"fmt"
	"math"
)

// Tokenizer segments text into Unigram pieces. It is immutable and safe
// for concurrent use.
type Tokenizer struct {
	ids      pieceTable // piece bytes → the lowest id with them
	scores   []float32
	unk      int32
	unkScore float32
	maxBytes int // the longest piece, in bytes
	// longest holds, per pair of first two code points, the longest piece
	// (in bytes) that starts with them: the Viterbi stops there, not at
	// maxBytes (a piece longer than one code point starts with a pair).
	longest pairTable
	norm    map[rune][]rune
}

// New returns the tokenizer of a vocabulary: pieces[i] is token id i with
// log-probability scores[i]; unk is the unknown token's id; norm maps a code
// point to its replacement (an empty one removes it).
func New(pieces []string, scores []float32, unk int, norm map[rune][]rune) (*Tokenizer, error) {
	if len(pieces) != len(scores) || len(pieces) == 0 {
		return nil, fmt.Errorf("unigram: %d pieces with %d scores", len(pieces), len(scores))
	}
	if unk < 0 || unk >= len(pieces) {
		return nil, fmt.Errorf("unigram: unknown token id %d outside %d pieces", unk, len(pieces))
	}
	t := &Tokenizer{ids: newPieceTable(pieces), scores: scores, unk: int32(unk), maxBytes: 1,
		longest: newPairTable(), norm: norm}
	low := float32(math.MaxFloat32)
	for i, p := range pieces {
		low = min(low, scores[i])
		t.maxBytes = max(t.maxBytes, len(p))
		if len(p) > lenMask { // longer than pairTable records
			return nil, fmt.Errorf("unigram: piece %d is %d bytes long, more than %d", i, len(p), lenMask)
		}
		if a, n := firstRune(p); n < len(p) {
			b, _ := firstRune(p[n:])
			t.longest.raise(a, b, len(p))
		}
	}
	t.unkScore = low - 10
	return t, nil
}

// Len is the number of pieces.
func (t *Tokenizer) Len() int { return len(t.scores) }

// Unknown is the unknown token's id.
func (t *Tokenizer) Unknown() int { return int(t.unk) }

// Append appends the token ids of text to dst and returns it.
func (t *Tokenizer) Append(dst []int, text string) []int {
	buf, starts := t.normalize(text)
	return t.viterbi(dst, buf, starts)
}

// viterbi appends the best segmentation of buf, whose code points start at
// the byte offsets starts (the last entry is len(buf)).
func (t *Tokenizer) viterbi(dst []int, buf []byte, starts []int) []int {
	n := len(starts) - 1
	best := make([]float32, n+1)
	piece := make([]int32, n+1) // -1: an unknown code point
	from := make([]int32, n+1)
	for i := 1; i <= n; i++ {
		best[i] = -1e30
	}
	for i := 0; i < n; i++ {
		if best[i] <= -1e29 {
			continue
		}
		b := starts[i]
		limit := t.maxBytes
		for e := i + 1; e <= n && starts[e]-b <= limit; e++ {
			if e == i+2 {
				a, _ := decode(string(buf[b:starts[i+1]]))
				c, _ := decode(string(buf[starts[i+1]:starts[e]]))
				if limit = t.longest.longest(a, c); starts[e]-b > limit {
					break
				}
			}
			id, ok := t.ids.lookup(buf[b:starts[e]])
			if !ok || id == t.unk {
				continue
			}
			if s := best[i] + t.scores[id]; s > best[e] {
				best[e], piece[e], from[e] = s, id, int32(i)
			}
		}
		if s := best[i] + t.unkScore; s > best[i+1] {
			best[i+1], piece[i+1], from[i+1] = s, -1, int32(i)
		}
	}
	k := len(dst)
	for i := n; i > 0; i = int(from[i]) {
		id := piece[i]
		if id < 0 {
			id = t.unk
		}
		dst = append(dst, int(id))
	}
	for a, b := k, len(dst)-1; a < b; a, b = a+1, b-1 {
		dst[a], dst[b] = dst[b], dst[a]
	}
	return dst
}

// firstRune decodes the first code point of s as the tokenizer reads text
// (decode), or reports 0, 0 for an empty s.
func firstRune(s string) (rune, int) {
	if s == "" {
		return 0, 0
	}
	return decode(s)
}
