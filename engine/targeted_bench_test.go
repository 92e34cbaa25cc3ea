package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkRefreshPathsOneEdit is a watch tick's work for one saved file:
// a targeted refresh of that path, in process.
func BenchmarkRefreshPathsOneEdit(b *testing.B) {
	e := benchEngine(b, 2000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rel := fmt.Sprintf("doc-%05d.md", i%2000)
		f, err := os.OpenFile(filepath.Join(e.Layout.Root, rel), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(f, "\nedit %d\n", i)
		f.Close()
		r, err := e.Refresh(context.Background(), RefreshOptions{Paths: []string{rel}})
		if err != nil || r.Outcome != OutcomeUpdated || r.FilesIndexed != 1 {
			b.Fatal(r, err)
		}
	}
}
