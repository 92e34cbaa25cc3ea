package analyze

import (
	"slices"
	"testing"
)

// TestIdentPartsASCII compares appendIdentPartsASCII with identParts on
// every string of up to six bytes over an alphabet with both cases (and the
// plural s), a digit, apostrophes and separators.
func TestIdentPartsASCII(t *testing.T) {
	alphabet := "aAsSx1'_.-"
	max := 6
	if testing.Short() || raceEnabled {
		max = 5
	}
	buf := make([]byte, 0, max)
	var rec func()
	rec = func() {
		want := identParts(buf)
		got := appendIdentPartsASCII(nil, buf)
		if !slices.Equal(want, got) {
			t.Fatalf("%q: appendIdentPartsASCII = %v, identParts = %v", buf, got, want)
		}
		if len(buf) == max {
			return
		}
		for i := range len(alphabet) {
			buf = append(buf, alphabet[i])
			rec()
			buf = buf[:len(buf)-1]
		}
	}
	rec()
	for _, s := range []string{"getUserName", "HTTPServer", "userIDs", "URLsList", "utf8Decode", "__init__", "x86_64",
		"don't_stop", "'s", "a''b", "ABCs", "ABCsx", "IDsHTTP2Server", "v1.2.3", "foo_'s"} {
		if want, got := identParts([]byte(s)), appendIdentPartsASCII(nil, []byte(s)); !slices.Equal(want, got) {
			t.Errorf("%q: appendIdentPartsASCII = %v, identParts = %v", s, got, want)
		}
	}
}
