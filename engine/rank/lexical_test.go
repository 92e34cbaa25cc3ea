package rank

import (
	"strings"
	"testing"
)

func TestLexicalFloor(t *testing.T) {
	hits := []Hit{{"a\x000", 1}}
	for _, tc := range []struct {
		name      string
		mode      string
		floor     float64
		bm        []Hit
		want      float64
		noLexical bool
	}{
		{"lexical hits keep the floor", ModeHybrid, 0.15, hits, 0.15, false},
		{"no lexical hit raises it", ModeHybrid, 0.15, nil, NoLexicalFloor, true},
		{"a higher floor stays", ModeHybrid, 0.7, nil, 0.7, true},
		{"vector mode is unfiltered", ModeVector, 0, nil, 0, false},
	} {
		got, no := LexicalFloor(tc.mode, tc.floor, tc.bm)
		if got != tc.want || no != tc.noLexical {
			t.Errorf("%s: %g %v, want %g %v", tc.name, got, no, tc.want, tc.noLexical)
		}
	}
	if h := NoLexicalHint(0.5, 7); !strings.HasPrefix(h, "no lexical match") || !strings.Contains(h, "7 below") {
		t.Errorf("hint %q", h)
	}
}
