package local

import (
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/rank"
)

// refParseDefs and refMetaSection are parseDefs and metaSection as they
// were first written, splitting the whole value.
func refParseDefs(s string) []rank.Def {
	if s == "" {
		return nil
	}
	entries := strings.Split(s, backend.DefSep)
	out := make([]rank.Def, 0, len(entries))
	for _, e := range entries {
		f := strings.SplitN(e, backend.MetaSep, 3)
		if len(f) != 3 {
			continue
		}
		line, _ := strconv.Atoi(f[2])
		out = append(out, rank.Def{Name: f[0], Kind: f[1], Line: line})
	}
	return out
}

func refMetaSection(meta []byte) string {
	parts := strings.SplitN(string(meta), backend.MetaSep, 4)
	if len(parts) < 4 {
		return ""
	}
	return parts[2]
}

// TestDefsParsedAsBefore: parseDefs and metaSection read every value, well
// formed or not, as the splitting references do.
func TestDefsParsedAsBefore(t *testing.T) {
	pieces := []string{backend.DefSep, backend.MetaSep, "Get", "func", "12", "x", "", " ", "-3", "type Node"}
	r := rand.New(rand.NewPCG(3, 5))
	values := []string{"", backend.DefSep, backend.MetaSep, "Get" + backend.MetaSep + "method" + backend.MetaSep + "40"}
	for range 2000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		values = append(values, b.String())
	}
	for _, v := range values {
		if got, want := parseDefs(v), refParseDefs(v); !reflect.DeepEqual(got, want) {
			t.Fatalf("parseDefs(%q) = %v, want %v", v, got, want)
		}
		if got, want := metaSection([]byte(v)), refMetaSection([]byte(v)); got != want {
			t.Fatalf("metaSection(%q) = %q, want %q", v, got, want)
		}
	}
}
