package analyze

import (
	"testing"
	"unicode/utf8"
)

// FuzzAnalyze checks that any input yields well-formed tokens: non-empty
// terms of bounded length, offsets inside the input, positions in order.
func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{
		"The runners' running quickly",
		"func (s *Store) GetUserByID(ctx context.Context) error",
		"foo_'s x.'s a_'_b don’t_' İstanbulFoo ΣΊΣΥΦΟΣ",
		"\xff\xfeAbc\xc3 日本語 v1.2.3 3.14",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		input := []byte(text)
		prev := 0
		for _, tok := range Analyzer().Analyze(input) {
			if len(tok.Term) == 0 {
				t.Fatalf("empty term at %d-%d", tok.Start, tok.End)
			}
			// Lower-casing may widen a rune by a byte (Ⱥ to ⱥ), stemming only shortens.
			if utf8.RuneCount(tok.Term) > MaxTermBytes {
				t.Fatalf("term of %d bytes: %q", len(tok.Term), tok.Term)
			}
			if tok.Start < 0 || tok.End > len(text) || tok.Start >= tok.End {
				t.Fatalf("bad offsets %d-%d for %q", tok.Start, tok.End, tok.Term)
			}
			if tok.Position < prev {
				t.Fatalf("position %d after %d", tok.Position, prev)
			}
			prev = tok.Position
		}
	})
}

// FuzzAnalyzeEquivalent checks the one-pass analyzer against the reference
// chain (equiv_test.go) on any input: the same tokens with the same terms,
// offsets, positions and types; and the ASCII segmenter against
// segment.SegmentWords at every offset.
func FuzzAnalyzeEquivalent(f *testing.F) {
	for _, s := range trickyInputs {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		checkEquivalent(t, []byte(text))
	})
}
