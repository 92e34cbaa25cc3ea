package mirror

import (
	"fmt"
	"testing"
)

// BenchmarkStoreOpenPut is an edit's use of the store: open it, Put one new
// object (the dedupe lookup in every pack), Get it back, close (the
// session's pack is discarded). The store holds one pack of 100,000
// objects, as after the first refresh of 100,000 documents.
func BenchmarkStoreOpenPut(b *testing.B) {
	dir := b.TempDir()
	s := OpenStore(dir)
	for i := range 100_000 {
		if _, err := s.Put(&Doc{Parser: "p", Text: fmt.Sprintf("text %d", i)}); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.Sync(); err != nil {
		b.Fatal(err)
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		s := OpenStore(dir)
		h, err := s.Put(testDoc(-i, 100))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Get(h); err != nil {
			b.Fatal(err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
