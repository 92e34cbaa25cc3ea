package split

import "testing"

func TestTermsEstimate(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"", 0},
		{"the heron fishes", 3},
		{"parseHTTP2Frame", 4},
		{"Heron", 1},
		{"a1b2", 4},
		{"QwiFvv/cD+x", 5},
		{"café au lait", 3},
		{"a\ufffdb\ufffd\ufffdc", 3},
		{"Ärger ÜBER", 2},
	} {
		if got := TermsEstimate(tc.text); got != tc.want {
			t.Errorf("TermsEstimate(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
}

func TestCutEndsAPartAtChunksOrTerms(t *testing.T) {
	c := Cut{MaxChunks: 3, MaxTerms: 10}
	var got []bool
	for _, text := range []string{"a b", "c", "d", "a b c d e f g h i j", "e"} {
		got = append(got, c.Full(text))
	}
	want := []bool{false, false, true, true, false}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Full: %v, want %v", got, want)
		}
	}
}
