package rank

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// randomNames are file names, folders and queries made of pieces that
// exercise every boundary Words knows (case runs, digits, separators),
// ASCII or not.
func randomNames(r *rand.Rand, n int) []string {
	pieces := []string{"a", "Z", "http", "HTTP", "Server", "x86", "_", "-", ".", "/", " ", "9", "42", "jsonPointer",
		"URLParser", "é", "Straße", "İ", "日本", "\xff", "ǅ", "Ⅻ", "٣", "A1b", "aB", "AB", "Ab"}
	out := []string{"", "a", "A", "AB", "ABc", "9a", "a9", "...", "HTTPServer", "utf8Decode"}
	for range n {
		var b strings.Builder
		ascii := r.IntN(2) == 0
		for range r.IntN(8) {
			p := pieces[r.IntN(len(pieces))]
			if ascii && p[0] >= 0x80 {
				continue
			}
			b.WriteString(p)
		}
		out = append(out, b.String())
	}
	return out
}

// TestWordsASCIIIsRunes: the byte-wise split of ASCII names gives the
// words the rune-wise one gives.
func TestWordsASCIIIsRunes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for _, s := range randomNames(r, 2000) {
		if got, want := Words(s), wordsRunes(s); !slices.Equal(got, want) {
			t.Fatalf("Words(%q) = %q, rune-wise %q", s, got, want)
		}
	}
}

// initials is the first rune of each of ws, as Abbreviation built them
// before initialsAre.
func initials(ws []string) string {
	var b strings.Builder
	for _, w := range ws {
		for _, r := range w {
			b.WriteRune(r)
			break
		}
	}
	return b.String()
}

// TestAbbreviationHelpers: initialsAre and joinedIs answer as comparing
// with the built initials and the joined words did.
func TestAbbreviationHelpers(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 1))
	names := randomNames(r, 300)
	for range 5000 {
		ws := make([]string, 1+r.IntN(4))
		for i := range ws {
			ws[i] = names[r.IntN(len(names))]
		}
		cands := []string{initials(ws), strings.Join(ws, ""), names[r.IntN(len(names))], strings.Join(ws, "")[:r.IntN(len(strings.Join(ws, ""))+1)]}
		for _, w := range cands {
			if got, want := initialsAre(ws, w), initials(ws) == w; got != want {
				t.Fatalf("initialsAre(%q, %q) = %v, want %v", ws, w, got, want)
			}
			if got, want := joinedIs(ws, w), strings.Join(ws, "") == w; got != want {
				t.Fatalf("joinedIs(%q, %q) = %v, want %v", ws, w, got, want)
			}
		}
	}
}
