package fingerprint

import (
	"encoding/json"
	"errors"
	"io/fs"
	"testing"
)

// FuzzSidecar feeds arbitrary bytes to the sidecar decoder: it never
// panics, every error is one of the documented ones, and what it accepts
// names a plain generation and artifact paths inside .autorag, and
// survives a write-and-read round trip.
func FuzzSidecar(f *testing.F) {
	valid := `{"format":1,"semantics_version":3,"fingerprint":"` + hex64 + `","generation":"000000012",` +
		`"settings":{"chunker":"x"},"counts":{"files":1,"chunks":2,"tokens":3},` +
		`"artifacts":[{"path":"index/000000012/files.bin","size":10,"blake3":"` + hex64 + `"}],"refresh":{"outcome":"updated"}}`
	for _, s := range []string{valid, `{}`, `{"format":2}`, `{"format":1,"generation":"../../etc"}`, `[`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSidecar(data)
		if err != nil {
			if !errors.Is(err, ErrCorruptSidecar) && !errors.Is(err, ErrSidecarFormat) {
				t.Fatalf("undocumented error: %v", err)
			}
			return
		}
		if !ValidGeneration(s.Generation) {
			t.Fatalf("accepted generation %q", s.Generation)
		}
		for _, a := range s.Artifacts {
			if !fs.ValidPath(a.Path) || a.Path == "." {
				t.Fatalf("accepted artifact path %q", a.Path)
			}
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseSidecar(b); err != nil {
			t.Fatalf("round trip: %v", err)
		}
	})
}

const hex64 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
