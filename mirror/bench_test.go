package mirror

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// benchTree creates n small files spread over nested directories, with a
// root .gitignore, and returns the root and the manifest of a first scan.
func benchTree(b *testing.B, n int) (string, *Store, *Manifest) {
	b.Helper()
	root := b.TempDir()
	if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte("*.o\nnode_modules/\n/build\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	for i := range n {
		dir := filepath.Join(root, fmt.Sprintf("d%03d", i/400), fmt.Sprintf("s%02d", i/40%10))
		if i%40 == 0 {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
		}
		body := fmt.Sprintf("file %d\nsome text to index\n", i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d.md", i)), []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	store := OpenStore(filepath.Join(root, ".autorag", "mirror", "objects"))
	res, err := Scan(context.Background(), root, store, nil, ScanOptions{})
	if err != nil {
		b.Fatal(err)
	}
	if len(res.Manifest.Entries) != n+1 {
		b.Fatalf("first scan indexed %d files, want %d", len(res.Manifest.Entries), n+1)
	}
	return root, store, res.Manifest
}

func BenchmarkScanNoop(b *testing.B) {
	for _, n := range []int{2000, 16000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			root, store, m := benchTree(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				res, err := Scan(context.Background(), root, store, m, ScanOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if res.Hashed != 0 || res.Changed {
					b.Fatalf("no-op scan did work: %+v", res)
				}
			}
		})
	}
}

// BenchmarkStatWalk is the floor BenchmarkScanNoop is measured against: a
// plain filepath.WalkDir that stats every file, like `find -printf %s%T@`.
func BenchmarkStatWalk(b *testing.B) {
	for _, n := range []int{2000, 16000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			root, _, _ := benchTree(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				count := 0
				err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
					if err != nil || d.IsDir() {
						return err
					}
					_, err = d.Info()
					count++
					return err
				})
				if err != nil || count < n {
					b.Fatal(err, count)
				}
			}
		})
	}
}

func BenchmarkLoadManifest(b *testing.B) {
	p := filepath.Join(b.TempDir(), "manifest")
	if err := sampleManifest(16000).Save(p); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		m, err := LoadManifest(p)
		if err != nil || len(m.Entries) != 16000 {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseFormats measures parse throughput (MB/s of source bytes)
// per format on the real files of testdata/formats. The PDF parser is
// warmed first: its one-time start-up is not part of the figure.
func BenchmarkParseFormats(b *testing.B) {
	files := []string{"report-libreoffice.pdf", "report-ghostscript.pdf", "report-gropdf.pdf",
		"report-libreoffice.docx", "slides-libreoffice.pptx", "budget-libreoffice.xlsx",
		"report-pandoc.html", "site-chrome.html", "report-mail.eml", "sent-mutt.mbox", "text-shiftjis.txt"}
	for _, name := range files {
		raw, err := os.ReadFile(filepath.Join("testdata/formats", name))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Parse(name, raw); err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				if _, err := Parse(name, raw); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkManifestSaveOneEdit is a one-file refresh's manifest work
// after its scan: load the manifest, change one entry, save it.
func BenchmarkManifestSaveOneEdit(b *testing.B) {
	for _, n := range []int{16000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			p := filepath.Join(b.TempDir(), "manifest.bin")
			if err := sampleManifest(n).Save(p); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				m, err := LoadManifest(p)
				if err != nil || len(m.Entries) != n {
					b.Fatal(err)
				}
				i++
				m.Entries = slices.Clone(m.Entries)
				m.Entries[i%n].Size++
				if err := m.Save(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
