package mirror

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.Repeat("x", i+1)), 0o644); err != nil {
			t.Fatal(err)
		}
		mt := base.Add(time.Duration(i) * time.Second)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
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

// TestStatFilesDropsVanished checks that files removed between the
// directory listing and their stat are dropped without a failure, serially
// and in parallel, and that the others keep their listing order and their
// own size while the candidates of earlier directories are left alone.
func TestStatFilesDropsVanished(t *testing.T) {
	for _, n := range []int{5, 3 * parallelStatMin} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			root := t.TempDir()
			for i := range n {
				p := filepath.Join(root, fmt.Sprintf("f%04d.txt", i))
				if err := os.WriteFile(p, []byte(strings.Repeat("x", i+1)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			w, err := newWalker(t.Context(), root)
			if err != nil {
				t.Fatal(err)
			}
			defer w.close()
			d, entries, err := w.openDir("")
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			w.add("earlier/dir.txt", "", 7, 8, textParser)
			var pending []pendingStat
			var want []string
			for i, e := range entries {
				pending = append(pending, pendingStat{entry: e})
				w.add(e.Name(), "", 0, 0, textParser)
				if i%3 == 1 {
					if err := os.Remove(filepath.Join(root, e.Name())); err != nil {
						t.Fatal(err)
					}
				} else {
					want = append(want, e.Name())
				}
			}
			w.statFiles(d, 1, pending)
			if len(w.failed) != 0 {
				t.Errorf("failures for vanished files: %v", w.failed)
			}
			if c := w.files[0]; c.rel != "earlier/dir.txt" || c.size != 7 || c.mtime != 8 {
				t.Errorf("candidate of an earlier directory changed: %+v", c)
			}
			var got []string
			for _, c := range w.files[1:] {
				got = append(got, c.rel)
				var i int
				if _, err := fmt.Sscanf(c.rel, "f%04d.txt", &i); err != nil || c.size != int64(i+1) || c.mtime == 0 {
					t.Errorf("%s: size %d, mtime %d; want size %d", c.rel, c.size, c.mtime, i+1)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("kept %v, want %v", got, want)
			}
		})
	}
}
