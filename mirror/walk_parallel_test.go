package mirror

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestScanLargeDirectory covers the parallel stat path: a directory with
// more files than parallelStatMin, interleaved with subdirectories, must
// give every file its own size and mtime, in path order.
func TestScanLargeDirectory(t *testing.T) {
	root := t.TempDir()
	want := map[string]int64{}
	base := time.Unix(1_700_000_000, 0)
	for i := 0; i < 3*parallelStatMin; i++ {
		rel := fmt.Sprintf("f%04d.txt", i)
		if i%100 == 0 {
			rel = fmt.Sprintf("f%04d/inner.txt", i) // a subdirectory between files
		}
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(strings.Repeat("x", i+1)), 0o644); err != nil {
			t.Fatal(err)
		}
		mt := base.Add(time.Duration(i) * time.Second)
		os.Chtimes(p, mt, mt)
		want[rel] = int64(i + 1)
	}
	res, err := Scan(context.Background(), root, OpenStore(t.TempDir()), &Manifest{}, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Manifest.Entries) != len(want) {
		t.Fatalf("%d entries, want %d", len(res.Manifest.Entries), len(want))
	}
	for i, e := range res.Manifest.Entries {
		if i > 0 && res.Manifest.Entries[i-1].Path >= e.Path {
			t.Fatalf("entries out of order at %s", e.Path)
		}
		if e.Size != want[e.Path] {
			t.Errorf("%s: size %d, want %d", e.Path, e.Size, want[e.Path])
		}
		n := int(want[e.Path] - 1)
		if e.MtimeNS != base.Add(time.Duration(n)*time.Second).UnixNano() {
			t.Errorf("%s: mtime %d is another file's", e.Path, e.MtimeNS)
		}
	}
}
