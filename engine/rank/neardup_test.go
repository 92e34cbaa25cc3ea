package rank

import (
	"testing"
)

func TestCollapseKey(t *testing.T) {
	same := [][2]string{
		{"Install it with\n  pip install foo==1.2.3\n", "Install it with pip install foo==1.4.0"},
		{"See the v3.10 docs.", "See  the\tv3.11.2 docs."},
		{"Requires Go 1.22 or later.", "Requires Go 1.23 or later."},
		{"  leading and trailing  ", "leading and trailing"},
		{"docs/2.4/guide and 2.4.", "docs/2.5/guide and 2.5."},
	}
	for _, p := range same {
		if collapseKey(p[0]) != collapseKey(p[1]) {
			t.Errorf("%q and %q do not collapse: keys %q, %q", p[0], p[1], collapseKey(p[0]), collapseKey(p[1]))
		}
	}
	apart := [][2]string{
		{"Use the v1 API.", "Use the v2 API."},           // no dot: not a version number
		{"python3.11 is needed", "python3.12 is needed"}, // part of a word
		{"Set retries to 3.", "Set retries to 4."},       // a number, not a version
		{"release 1.2.3rc1", "release 1.2.3rc2"},         // part of a longer word
		{"Install it with pip.", "Install it with apt."}, // other words
		{"a b", "ab"}, // a space is not nothing
		{"pi is 3.14 or so; 2.71 is e", "pi is 3.15 or so; 2.71 is f"}, // other words too
	}
	for _, p := range apart {
		if collapseKey(p[0]) == collapseKey(p[1]) {
			t.Errorf("%q and %q collapse (key %q)", p[0], p[1], collapseKey(p[0]))
		}
	}
}

// TestCollapseKeyPrefix: a limited key is the prefix of the whole one.
func TestCollapseKeyPrefix(t *testing.T) {
	text := "Download   release 1.4.2 and unpack the archive;\n\tthe collector binary starts with the default configuration. "
	full := collapseKey(text)
	for n := 0; n <= len(full)+3; n++ {
		got := string(appendCollapseKey([]byte("x"), text, n))
		if want := "x" + full[:min(n, len(full))]; got != want {
			t.Fatalf("limit %d: %q, want %q", n, got, want)
		}
	}
}

func BenchmarkCollapseKey(b *testing.B) {
	text := ""
	for len(text) < 2400 {
		text += "The collector 0.98.0 exports spans over OTLP; see docs/v1.2/setup for the\n   configuration of  receivers and processors. "
	}
	b.SetBytes(int64(len(text)))
	var buf []byte
	for b.Loop() {
		buf = appendCollapseKey(buf[:0], text, -1)
	}
}
