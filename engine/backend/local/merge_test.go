package local

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/index/scorch"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/record"
)

// TestEditsKeepTheirMerges refreshes one file at a time, each generation
// built on the one before as the engine builds them, so that the writers'
// merge policy merges small segments after most edits: every merge must be
// in the generation's persisted snapshot (a merge lost at Close left its
// file unlisted, and the next generation repeated it), the segment count
// must stay bounded, and every chunk must be there once.
func TestEditsKeepTheirMerges(t *testing.T) {
	s := testStorage(t)
	s.EmbedderID, s.Dims = "", 0 // BM25 only
	const files = 6
	var chunks []*backend.Chunk
	for i := range files {
		chunks = append(chunks, &backend.Chunk{Path: fmt.Sprintf("f%d.md", i), Text: fmt.Sprintf("heron %d waits", i)})
	}
	write(t, s, "000000001", chunks, nil)
	for i := 1; i <= 24; i++ {
		base, gen := fmt.Sprintf("%09d", i), fmt.Sprintf("%09d", i+1)
		c := &backend.Chunk{Path: fmt.Sprintf("f%d.md", i%files), Text: fmt.Sprintf("heron %d edit %d", i%files, i)}
		edit(t, s, base, gen, c)
		listed, err := listedSegments(filepath.Join(s.GenDir(gen), bleveDir), gen)
		if err != nil {
			t.Fatal(err)
		}
		// A merge writes a segment of a higher number than its inputs,
		// which scorch removes later: the newest file must be listed.
		segs := storeSegments(t, filepath.Join(s.GenDir(gen), bleveDir))
		if newest := segs[len(segs)-1]; !slices.Contains(listed, newest) {
			t.Fatalf("edit %d: the newest segment file %s is not in the persisted snapshot %v (a merge lost at Close)", i, newest, listed)
		}
		for _, f := range listed {
			if _, err := os.Stat(filepath.Join(s.GenDir(gen), bleveDir, "store", f)); err != nil {
				t.Fatalf("edit %d: listed segment: %v", i, err)
			}
		}
		if len(listed) > 4 {
			t.Fatalf("edit %d: %d segments %v: the merges do not keep up", i, len(listed), listed)
		}
		st, err := segmentStats(filepath.Join(s.GenDir(gen), bleveDir), gen)
		if err != nil || st.Docs-st.Deleted != files {
			t.Fatalf("edit %d: %+v %v, want %d live chunks", i, st, err, files)
		}
	}
}

// edit builds gen from base with c replacing its file's chunk, as a
// one-file refresh does.
func edit(t testing.TB, s Storage, base, gen string, c *backend.Chunk) {
	t.Helper()
	ctx := context.Background()
	if err := os.MkdirAll(s.GenDir(gen), 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := s.Begin(ctx, base, gen)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ch := backend.Change{Deletes: []string{record.ChunkID(c.Path, 0)}, Upserts: []*backend.Chunk{c}, Final: true}
	if err := w.Apply(ctx, ch); err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(ctx); err != nil {
		t.Fatal(err)
	}
}

// listedSegments is the sorted file names of the segments the persisted
// snapshot of the index at dir lists.
func listedSegments(dir, gen string) ([]string, error) {
	idx, err := openBleveRO(dir, gen)
	if err != nil {
		return nil, err
	}
	defer idx.Close()
	var names []string
	err = idx.reading(func(r index.IndexReader) error {
		for _, seg := range r.(*scorch.IndexSnapshot).Segments() {
			names = append(names, fmt.Sprintf("%012x.zap", seg.Id()))
		}
		return nil
	})
	slices.Sort(names)
	return names, err
}

// storeSegments is the sorted names of the segment files in dir's store.
func storeSegments(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".zap") {
			names = append(names, e.Name())
		}
	}
	return names
}
