package transformer

import (
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/autorag/autorag/engine/embed/transformer/internal/weights"
	"github.com/autorag/autorag/engine/embed/unigram"
)

// plainUnigram is the segmentation engine/embed/unigram's doc.go describes,
// written as plainly as it reads: e5.c's decoding, the normalization map,
// the metaspace, and a Viterbi over every span up to the longest piece,
// each looked up in a Go map (no pruning, no hash tables of its own). It
// is the oracle the tokenizer's tables are held to.
type plainUnigram struct {
	f        *weights.E5S1
	ids      map[string]int
	maxBytes int
	unkScore float32
}

func newPlainUnigram(f *weights.E5S1) *plainUnigram {
	p := &plainUnigram{f: f, ids: map[string]int{}}
	low := f.Scores[0]
	for i, s := range f.Pieces {
		if _, dup := p.ids[s]; s != "" && !dup {
			p.ids[s] = i
		}
		p.maxBytes, low = max(p.maxBytes, len(s)), min(low, f.Scores[i])
	}
	p.unkScore = low - 10
	return p
}

// e5Decode reads one code point as e5.c's utf8_decode does.
func e5Decode(s string) (rune, int) {
	c := s[0]
	switch {
	case c>>5 == 0x6 && len(s) >= 2:
		return rune(c&0x1F)<<6 | rune(s[1]&0x3F), 2
	case c>>4 == 0xE && len(s) >= 3:
		return rune(c&0x0F)<<12 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F), 3
	case c>>3 == 0x1E && len(s) >= 4:
		return rune(c&0x07)<<18 | rune(s[1]&0x3F)<<12 | rune(s[2]&0x3F)<<6 | rune(s[3]&0x3F), 4
	}
	return rune(c), 1
}

// spans normalizes text and returns each code point of the result, as
// UTF-8 bytes the way e5.c's utf8_encode writes them (▁ for a space).
func (p *plainUnigram) spans(text string) []string {
	var cps []rune
	add := func(r rune) {
		if r != ' ' || len(cps) == 0 || cps[len(cps)-1] != ' ' {
			cps = append(cps, r)
		}
	}
	for i := 0; i < len(text); {
		r, n := e5Decode(text[i:])
		i += n
		if rep, ok := p.f.Norm[r]; ok {
			for _, x := range rep {
				add(x)
			}
		} else {
			add(r)
		}
	}
	if len(cps) == 0 || cps[0] != ' ' {
		cps = append([]rune{' '}, cps...)
	}
	out := make([]string, len(cps))
	for i, r := range cps {
		if r == ' ' {
			r = 0x2581
		}
		switch {
		case r < 0x80:
			out[i] = string([]byte{byte(r)})
		case r < 0x800:
			out[i] = string([]byte{0xC0 | byte(r>>6), 0x80 | byte(r&0x3F)})
		case r < 0x10000:
			out[i] = string([]byte{0xE0 | byte(r>>12), 0x80 | byte(r>>6&0x3F), 0x80 | byte(r&0x3F)})
		default:
			out[i] = string([]byte{0xF0 | byte(r>>18), 0x80 | byte(r>>12&0x3F), 0x80 | byte(r>>6&0x3F), 0x80 | byte(r&0x3F)})
		}
	}
	return out
}

// tokens is the best segmentation: ties keep the earlier path, a code
// point no piece covers is the unknown token alone.
func (p *plainUnigram) tokens(text string) []int {
	cps := p.spans(text)
	n := len(cps)
	best, piece, from := make([]float32, n+1), make([]int, n+1), make([]int, n+1)
	for i := 1; i <= n; i++ {
		best[i] = -1e30
	}
	for i := range n {
		span := ""
		for e := i + 1; e <= n && len(span)+len(cps[e-1]) <= p.maxBytes; e++ {
			span += cps[e-1]
			if id, ok := p.ids[span]; ok && id != p.f.Unknown && best[i]+p.f.Scores[id] > best[e] {
				best[e], piece[e], from[e] = best[i]+p.f.Scores[id], id, i
			}
		}
		if s := best[i] + p.unkScore; s > best[i+1] {
			best[i+1], piece[i+1], from[i+1] = s, p.f.Unknown, i
		}
	}
	var out []int
	for i := n; i > 0; i = from[i] {
		out = append(out, piece[i])
	}
	slices.Reverse(out)
	return out
}

// randomMultilingual is a random text: pieces of the reference texts (many
// scripts) cut anywhere, even inside a code point, mixed with random code
// points of many scripts, marks, odd spaces, controls and stray bytes.
func randomMultilingual(r *rand.Rand, ref []string) string {
	ranges := [][2]rune{{0x20, 0x7E}, {0xA0, 0x24F}, {0x300, 0x36F}, {0x370, 0x3FF}, {0x400, 0x4FF}, {0x590, 0x6FF},
		{0x900, 0x97F}, {0xE00, 0xE7F}, {0x1100, 0x11FF}, {0x2000, 0x206F}, {0x3040, 0x30FF}, {0x4E00, 0x9FFF},
		{0xAC00, 0xD7A3}, {0xFF00, 0xFFEF}, {0x1F300, 0x1FAFF}, {0x0, 0x1F}}
	var b strings.Builder
	for b.Len() < 20+r.IntN(400) {
		switch r.IntN(4) {
		case 0, 1:
			s := ref[r.IntN(len(ref))]
			i := r.IntN(len(s) + 1)
			b.WriteString(s[i:min(len(s), i+1+r.IntN(60))])
		case 2:
			rg := ranges[r.IntN(len(ranges))]
			b.WriteRune(rg[0] + rune(r.IntN(int(rg[1]-rg[0]+1))))
		default:
			b.WriteString([]string{" ", "  ", "\t", "\n", "\u00a0", "\u3000", "\xff", "\xc3", "\u200b", "ﬁ", "Ａ"}[r.IntN(11)])
		}
	}
	return b.String()
}

// TestE5S1TokensMatchPlainViterbi holds the tokenizer, on the real
// multilingual-e5-small vocabulary, to the plain segmentation on 2,000
// random multilingual texts: its hash tables and its bound on each step
// find the same tokens as looking every span up in a map.
func TestE5S1TokensMatchPlainViterbi(t *testing.T) {
	b, err := os.ReadFile(weightFile(t, e5Model))
	if err != nil {
		t.Fatal(err)
	}
	f, err := weights.ReadE5S1(b)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := unigram.New(f.Pieces, f.Scores, f.Unknown, f.Norm)
	if err != nil {
		t.Fatal(err)
	}
	plain := newPlainUnigram(f)
	var ref []string
	for _, c := range readE5Reference(t).Cases {
		if c.Text != "" {
			ref = append(ref, c.Text)
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 2000 {
		text := randomMultilingual(r, ref)
		if got, want := tok.Append(nil, text), plain.tokens(text); !slices.Equal(got, want) {
			t.Fatalf("text %d %q:\n got %v\nwant %v", i, text, got, want)
		}
	}
}
