package copies

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/cespare/xxhash/v2"
)

// refSign is Sign as it was written first: the words split rune by rune
// from the lowercased text, each shingle hashed word by word.
func refSign(text string) Signature {
	text = text[:min(len(text), signBytes)]
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(words) == 0 {
		return nil
	}
	n := max(len(words)-shingleWords+1, 1)
	hashes := make([]uint64, 0, n)
	var h xxhash.Digest
	for i := 0; i < n; i++ {
		h.Reset()
		for _, w := range words[i:min(i+shingleWords, len(words))] {
			h.WriteString(w)
			h.Write([]byte{0})
		}
		hashes = append(hashes, h.Sum64())
	}
	slices.Sort(hashes)
	hashes = slices.Compact(hashes)
	return Signature(hashes[:min(len(hashes), sketchSize)])
}

// TestSignIsRefSign: Sign gives the signature refSign gives, on ASCII
// texts (the byte-wise split) and others, short and long (past signBytes,
// cut inside a rune too), with every kind of separator.
func TestSignIsRefSign(t *testing.T) {
	pieces := []string{"Func", "main", "x86_64", "HTTPServer", "the", "a", "9", "é", "Straße", "İstanbul", "日本語",
		" ", "\t", "\n", ".", "(", ")", "_", "-", "'", "\x00", "\x7f", "Ⅻ", "٣", "ǅ"}
	r := rand.New(rand.NewPCG(7, 11))
	texts := []string{"", " ", "...", "one", "one two", "one two three four", "One TWO three four five"}
	for range 400 {
		var b strings.Builder
		ascii := r.IntN(2) == 0
		for range r.IntN(60) {
			p := pieces[r.IntN(len(pieces))]
			if ascii && p[0] >= 0x80 {
				continue
			}
			b.WriteString(p)
		}
		texts = append(texts, b.String())
	}
	long := strings.Repeat("Alpha beta, GAMMA_delta 42; ", signBytes/20)
	texts = append(texts, long, long[:signBytes-1]+"é and more", strings.Repeat("x", signBytes+5))
	for _, text := range texts {
		if got, want := Sign(text), refSign(text); !slices.Equal(got, want) {
			t.Fatalf("Sign(%q) = %v, want %v", text[:min(len(text), 80)], got, want)
		}
	}
}

// BenchmarkSign signs an ASCII source text of about 40 KB, as a query
// signs the documents of two sibling results.
func BenchmarkSign(b *testing.B) {
	text := strings.Repeat("func (c *Context) BindJSON(obj any) error {\n\treturn c.MustBindWith(obj, binding.JSON)\n}\n", 450)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Sign(text)
	}
}
