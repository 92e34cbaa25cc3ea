package mirror

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestChanged(t *testing.T) {
	base := map[string]string{
		"a.md":       "# A\n\nalpha\n",
		"b/c.go":     "package b\n",
		".gitignore": "out/\n",
		"big.txt":    "0123456789",
	}
	for _, tt := range []struct {
		name   string
		change func(t *testing.T, root string)
		want   bool
	}{
		{"nothing", func(t *testing.T, root string) {}, false},
		{"touch", func(t *testing.T, root string) {
			future := time.Now().Add(time.Hour)
			if err := os.Chtimes(filepath.Join(root, "a.md"), future, future); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"ignored file added", func(t *testing.T, root string) { writeTree(t, root, map[string]string{"out/x.md": "x"}) }, false},
		{"binary file added", func(t *testing.T, root string) { writeTree(t, root, map[string]string{"x.dat": "\x00\x01"}) }, false},
		{"binary extension added", func(t *testing.T, root string) { writeTree(t, root, map[string]string{"x.png": "png"}) }, false},
		{"too large file added", func(t *testing.T, root string) {
			writeTree(t, root, map[string]string{"huge.txt": "0123456789abcdef0123"})
		}, false},
		{"edit, same size", func(t *testing.T, root string) { writeTree(t, root, map[string]string{"a.md": "# A\n\nALPHA\n"}) }, true},
		{"file added", func(t *testing.T, root string) { writeTree(t, root, map[string]string{"b/d.go": "package b\n"}) }, true},
		{"file removed", func(t *testing.T, root string) { os.Remove(filepath.Join(root, "b/c.go")) }, true},
		{"file grew past the limit", func(t *testing.T, root string) {
			writeTree(t, root, map[string]string{"big.txt": "0123456789abcdef0123"})
		}, true},
		{"ignore rule now covers a file", func(t *testing.T, root string) {
			writeTree(t, root, map[string]string{".gitignore": "out/\nb/\n"})
		}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, base)
			res := scan(t, root, OpenStore(t.TempDir()), nil, ScanOptions{MaxFileSize: 16})
			tt.change(t, root)
			got, err := Changed(t.Context(), root, res.Manifest, 16, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Changed = %v, want %v", got, tt.want)
			}
			// A refresh's scan agrees on whether the indexed texts change.
			again := scan(t, root, OpenStore(t.TempDir()), res.Manifest, ScanOptions{MaxFileSize: 16})
			if differ := !sameTexts(res.Manifest, again.Manifest); differ != tt.want {
				t.Errorf("scan says texts changed = %v, Changed says %v", differ, got)
			}
		})
	}
}

func sameTexts(a, b *Manifest) bool {
	if len(a.Entries) != len(b.Entries) {
		return false
	}
	for i := range a.Entries {
		if a.Entries[i].Path != b.Entries[i].Path || a.Entries[i].TextHash != b.Entries[i].TextHash {
			return false
		}
	}
	return true
}

// BenchmarkChanged is what one sources check of the servers' stale flag
// costs on an unchanged tree (compare BenchmarkScanNoop).
func BenchmarkChanged(b *testing.B) {
	for _, n := range []int{2000, 16000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			root, _, m := benchTree(b, n)
			b.ReportAllocs()
			for b.Loop() {
				changed, err := Changed(b.Context(), root, m, 0, nil)
				if err != nil || changed {
					b.Fatal(changed, err)
				}
			}
		})
	}
}

// TestChangedRecordedFailureIsNoChange: a file whose parse failed (a text
// file named .docx) and is remembered so is not a change while it keeps
// its size and mtime, and is one once edited.
func TestChangedRecordedFailureIsNoChange(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.md": "# A\nalpha", "fake.docx": "not a zip at all"})
	res := scan(t, root, OpenStore(t.TempDir()), nil, ScanOptions{Failures: &FailMemo{}})
	if len(res.Failures.Files) != 1 {
		t.Fatalf("failures remembered: %+v", res.Failures)
	}
	if got, err := Changed(t.Context(), root, res.Manifest, 0, res.Failures); err != nil || got {
		t.Errorf("Changed = %v, %v with only a remembered failure; want false", got, err)
	}
	writeTree(t, root, map[string]string{"fake.docx": "still not a zip, but edited"})
	if got, err := Changed(t.Context(), root, res.Manifest, 0, res.Failures); err != nil || !got {
		t.Errorf("Changed = %v, %v after the failed file was edited; want true", got, err)
	}
}
