package analyze

import (
	"math/rand/v2"
	"testing"
)

// TestStemCacheMatchesStemASCII stems random lower-case words, many of
// them again, and more distinct ones than the cache holds, through one
// cache (trimmed before each word, as before each analysis) and directly:
// the stems must agree, and a stem's id must be the one of its string.
func TestStemCacheMatchesStemASCII(t *testing.T) {
	const stemSlack = 1 // a trimmed cache takes one more word
	r := rand.New(rand.NewPCG(25, 2))
	suffixes := []string{"", "s", "es", "ies", "ed", "ing", "ational", "ization", "ness", "ful", "ly", "ement", "bled", "ated", "e", "y"}
	var words []string
	for range 3 * maxCachedStems {
		n := 1 + r.IntN(9)
		b := make([]byte, n)
		for i := range b {
			b[i] = "abcdeilmnorstuyz"[r.IntN(16)]
		}
		words = append(words, string(b)+suffixes[r.IntN(len(suffixes))])
	}
	var c stemCache
	for i := range 8 * maxCachedStems {
		w := words[r.IntN(len(words))]
		if i%3 == 0 {
			w = words[r.IntN(64)] // frequent words
		}
		c.trim()
		stem, id := c.stem([]byte(w))
		if want := string(stemASCII([]byte(w))); string(stem) != want || c.stems[id] != want {
			t.Fatalf("stem of %q from the cache is %q (id %d: %q), want %q", w, stem, id, c.stems[id], want)
		}
		if other, ok := c.byStem[string(stem)]; !ok || other != id {
			t.Fatalf("stem %q has id %d, and %d, %v by its string", stem, id, other, ok)
		}
		if len(c.ids) > stemSlack+maxCachedStems {
			t.Fatalf("cache holds %d stems", len(c.ids))
		}
		if len(c.stems) > maxCachedStems {
			t.Fatalf("cache holds %d stems, more than %d", len(c.stems), maxCachedStems)
		}
	}
}

// BenchmarkStemCache stems words drawn Zipf-like from a vocabulary of
// 20,000 through a cache, and directly.
func BenchmarkStemCache(b *testing.B) {
	r := rand.New(rand.NewPCG(25, 4))
	z := rand.NewZipf(r, 1.1, 2, 19999)
	vocab := make([]string, 20000)
	suffixes := []string{"", "s", "ed", "ing", "ation", "ness", "ly", "ement"}
	for i := range vocab {
		b := make([]byte, 3+r.IntN(7))
		for j := range b {
			b[j] = byte('a' + r.IntN(26))
		}
		vocab[i] = string(b) + suffixes[r.IntN(len(suffixes))]
	}
	words := make([][]byte, 1<<16)
	for i := range words {
		words[i] = []byte(vocab[z.Uint64()])
	}
	buf := make([]byte, 64)
	b.Run("cache", func(b *testing.B) {
		var c stemCache
		i := 0
		for b.Loop() {
			w := words[i%len(words)]
			c.stem(buf[:copy(buf, w)])
			i++
		}
	})
	b.Run("direct", func(b *testing.B) {
		i := 0
		for b.Loop() {
			w := words[i%len(words)]
			stemASCII(buf[:copy(buf, w)])
			i++
		}
	})
}
