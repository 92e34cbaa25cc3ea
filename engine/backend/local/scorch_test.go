package local

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/autorag/autorag/engine/backend"
)

// scorchChunks are chunk documents of every field shape bleveDoc makes.
func scorchChunks(n int) []*backend.Chunk {
	cs := make([]*backend.Chunk, n)
	for i := range cs {
		cs[i] = &backend.Chunk{Path: fmt.Sprintf("dir/doc%03d.md", i), Ord: i % 3, Text: fmt.Sprintf("chunk %d about rotating signing keys and backoff %d", i, i*7),
			Title: "Doc", Section: "Intro", StartLine: i, EndLine: i + 4}
		if i%4 == 0 {
			cs[i].Facets = []string{"type=md", "author=ada"}
		}
		if i%5 == 0 {
			cs[i].Lang = "de"
		}
	}
	return cs
}

// dumpIndex is what the index at dir holds, as sorted lines: every term of
// the indexed fields with its postings (document, frequency, norm), every
// document's stored fields, and the internal values.
func dumpIndex(t *testing.T, dir string) []string {
	t.Helper()
	idx, err := openBleveRO(dir, "g1")
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	var lines []string
	err = idx.reading(func(r index.IndexReader) error {
		for _, field := range []string{fieldBody, fieldFacet, fieldLang, fieldText, fieldMeta} {
			d, err := r.FieldDict(field)
			if err != nil {
				return err
			}
			for e, err := d.Next(); e != nil || err != nil; e, err = d.Next() {
				if err != nil {
					return err
				}
				tfr, err := r.TermFieldReader(context.Background(), []byte(e.Term), field, true, true, false)
				if err != nil {
					return err
				}
				for p, err := tfr.Next(nil); p != nil || err != nil; p, err = tfr.Next(nil) {
					if err != nil {
						return err
					}
					id, err := r.ExternalID(p.ID)
					if err != nil {
						return err
					}
					lines = append(lines, fmt.Sprintf("term %s %q %s %d %v", field, e.Term, id, p.Freq, p.Norm))
				}
				tfr.Close()
			}
			d.Close()
		}
		all, err := r.DocIDReaderAll()
		if err != nil {
			return err
		}
		for iid, err := all.Next(); iid != nil || err != nil; iid, err = all.Next() {
			if err != nil {
				return err
			}
			id, err := r.ExternalID(iid)
			if err != nil {
				return err
			}
			doc, err := r.Document(id)
			if err != nil {
				return err
			}
			doc.VisitFields(func(f index.Field) { lines = append(lines, fmt.Sprintf("stored %s %s %q", id, f.Name(), f.Value())) })
		}
		for _, k := range []string{stampKey, "_mapping"} {
			v, err := r.GetInternal([]byte(k))
			if err != nil {
				return err
			}
			lines = append(lines, fmt.Sprintf("internal %s %q", k, v))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(lines)
	return lines
}

// TestCreateScorchStoresWhatBleveDoes: an index created and filled without
// bleve's top-level package holds the same index_meta.json, the same
// stored mapping, stamp, terms, postings and stored fields as one bleve.NewUsing created
// and filled with the same batch; each opens the other's index.
func TestCreateScorchStoresWhatBleveDoes(t *testing.T) {
	ctx := context.Background()
	old, cur := filepath.Join(t.TempDir(), "bleve"), filepath.Join(t.TempDir(), "bleve")
	chunks := scorchChunks(40)

	bi, err := bleve.NewUsing(old, indexMapping(), scorch.Name, scorch.Name, rwConfig())
	if err != nil {
		t.Fatal(err)
	}
	b := bi.NewBatch()
	b.Delete("gone.md#0")
	for _, c := range chunks {
		d, _ := bleveDoc(c)
		if err := b.IndexAdvanced(d); err != nil {
			t.Fatal(err)
		}
	}
	b.SetInternal([]byte(stampKey), []byte("g1"))
	if err := bi.Batch(b); err != nil {
		t.Fatal(err)
	}
	if err := bi.Close(); err != nil {
		t.Fatal(err)
	}

	idx, err := createBleve(cur)
	if err != nil {
		t.Fatal(err)
	}
	if err := applyBatch(ctx, idx, []string{"gone.md#0"}, scorchChunks(40), "g1", false); err != nil {
		t.Fatal(err)
	}
	if err := idx.Close(); err != nil {
		t.Fatal(err)
	}

	for _, name := range []string{"index_meta.json"} {
		a, _ := os.ReadFile(filepath.Join(old, name))
		c, err := os.ReadFile(filepath.Join(cur, name))
		if err != nil || !bytes.Equal(a, c) {
			t.Fatalf("%s: bleve wrote %q, createScorch %q (%v)", name, a, c, err)
		}
	}
	// Segment files are not comparable byte for byte (bleve writes the
	// same batch to different bytes from one run to the next); what they
	// hold is.
	da, dc := dumpIndex(t, old), dumpIndex(t, cur)
	if len(da) < 100 || !slices.Equal(da, dc) {
		t.Fatalf("bleve's index holds %d lines, createScorch's %d:\n%s", len(da), len(dc), firstDiff(da, dc))
	}

	// Each side opens the other's index: same stored mapping, stamp, count.
	for _, dir := range []string{old, cur} {
		ro, err := openBleveRO(dir, "g1")
		if err != nil {
			t.Fatal(err)
		}
		n, err := ro.DocCount()
		mapping, merr := ro.GetInternal([]byte("_mapping"))
		ro.Close()
		if err != nil || merr != nil || n != uint64(len(chunks)) {
			t.Fatalf("%s: %d docs (%v, %v), want %d", dir, n, err, merr, len(chunks))
		}
		bx, err := bleve.OpenUsing(dir, map[string]interface{}{"read_only": true})
		if err != nil {
			t.Fatalf("bleve opens %s: %v", dir, err)
		}
		want, err := bx.GetInternal([]byte("_mapping"))
		bn, _ := bx.DocCount()
		bx.Close()
		if err != nil || !bytes.Equal(mapping, want) || bn != n {
			t.Fatalf("%s: mapping %q / %q, docs %d / %d", dir, mapping, want, n, bn)
		}
	}
}

// TestScorchIndexClosed: a closed index refuses reads and batches instead
// of using a closed scorch.
func TestScorchIndexClosed(t *testing.T) {
	idx, err := createBleve(filepath.Join(t.TempDir(), "bleve"))
	if err != nil {
		t.Fatal(err)
	}
	if err := idx.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := idx.DocCount(); err == nil {
		t.Error("DocCount of a closed index")
	}
	if err := idx.Batch(idx.NewBatch()); err == nil {
		t.Error("Batch on a closed index")
	}
}

// TestOpenScorchRefusesOtherIndexes: an index_meta.json that does not name
// scorch, or is not JSON, is an error, not a guess.
func TestOpenScorchRefusesOtherIndexes(t *testing.T) {
	for _, meta := range []string{`{"storage":"boltdb","index_type":"upside_down"}`, `{"storage":"boltdb"}`, `not json`} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "index_meta.json"), []byte(meta), 0o600); err != nil {
			t.Fatal(err)
		}
		if idx, err := openBleveRW(dir); err == nil {
			idx.Close()
			t.Errorf("index_meta.json %s opened", meta)
		}
	}
	if _, err := openBleveRO(filepath.Join(t.TempDir(), "none"), "g1"); err == nil {
		t.Error("a missing index opened")
	}
}

func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return a[i] + "\n" + b[i]
		}
	}
	return "one is a prefix of the other"
}
