package filetable

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/autorag/autorag/mirror"
)

// BenchmarkTableOneEdit is the file table's share of a 1-edit refresh over
// n files: load the base generation's table, diff it against a manifest
// with one file changed, write the next generation's table, drop the old
// generation (as the refresh's garbage collection does). No fsync: the
// refresh's SyncTree skips linked files and syncs the rest.
func BenchmarkTableOneEdit(b *testing.B) {
	for _, n := range []int{2000, 16000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			root := b.TempDir()
			tab := make(Table, n)
			man := &mirror.Manifest{Entries: make([]mirror.Entry, n)}
			for i := range tab {
				p := fmt.Sprintf("docs/doc-%06d.md", i)
				tab[i] = Record{Path: p, TextHash: mirror.HashBytes([]byte(p)), Chunks: 3, Tokens: 800}
				man.Entries[i] = mirror.Entry{Path: p, TextHash: tab[i].TextHash}
			}
			dir := filepath.Join(root, "0")
			if err := os.Mkdir(dir, 0o700); err != nil {
				b.Fatal(err)
			}
			if err := Write(dir, tab); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				e := &man.Entries[(i*7919)%n]
				e.TextHash = mirror.HashBytes(fmt.Appendf(nil, "%s %d", e.Path, i))
				next := filepath.Join(root, fmt.Sprint(i+1))
				if err := os.Mkdir(next, 0o700); err != nil {
					b.Fatal(err)
				}
				oneEdit(b, dir, next, man)
				if err := os.RemoveAll(dir); err != nil {
					b.Fatal(err)
				}
				dir = next
			}
		})
	}
}

func oneEdit(b *testing.B, dir, next string, man *mirror.Manifest) {
	l, err := Load(dir)
	if err != nil {
		b.Fatal(err)
	}
	cs := Diff(l.Table, man)
	records := make([]Record, len(cs.Index))
	for i, en := range cs.Index {
		records[i] = Record{Path: en.Path, TextHash: en.TextHash, Chunks: 3, Tokens: 801}
	}
	if _, err := l.WriteNext(dir, next, records, cs.Removed); err != nil {
		b.Fatal(err)
	}
}
