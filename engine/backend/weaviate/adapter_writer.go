package weaviate

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/record"
	"github.com/autorag/autorag/fingerprint"
)

// weaviateWriter gathers the change set and commits it in one Pair update:
// the journal makes an interrupted one converge on the next refresh.
type weaviateWriter struct {
	s       *weaviateStorage
	gen     string
	rebuild bool
	change  Change
	langs   map[string]bool
}

var _ backend.Writer = (*weaviateWriter)(nil)

// Apply adds a part to the change. build.go hands every chunk of a file
// to one part, in order, so the file's first chunk, which holds its filter
// terms, is seen before the others.
func (w *weaviateWriter) Apply(ctx context.Context, ch backend.Change) error {
	w.change.Deletes = append(w.change.Deletes, wireIDs(ch.Deletes)...)
	var first *backend.Chunk
	for i, d := range ch.Upserts {
		if err := ctx.Err(); err != nil {
			return err
		}
		if first == nil || d.Path != first.Path {
			first = d
		}
		o := chunkObject(d, first)
		if ch.Vecs != nil {
			o.Vector = ch.Vecs[i]
		}
		w.langs[d.Lang] = true
		w.change.Upserts = append(w.change.Upserts, o)
	}
	return nil
}

// Finish has nothing to make durable on the client: the state is written
// to the cluster by commit, in front of the swap.
func (w *weaviateWriter) Finish(context.Context) error { return nil }

// Commit imports the change into the standby collection and swaps the
// alias onto it (a rebuild: into a new epoch's pair), then records the
// swap in the generation directory.
func (w *weaviateWriter) Commit(ctx context.Context) (string, error) {
	var rep Report
	var err error
	if w.rebuild {
		rep, err = w.s.pair.Build(ctx, w.gen, w.change.Upserts)
	} else {
		rep, err = w.s.pair.Commit(ctx, w.change)
	}
	if rep.Active == "" {
		return "", fmt.Errorf("weaviate: %w (the committed index is untouched and still served)", err)
	}
	warning := ""
	if err != nil { // committed: the alias names the new state
		warning = fmt.Sprintf("weaviate: committed, the next refresh finishes: %v", err)
	}
	langs := make([]string, 0, len(w.langs))
	for l := range w.langs {
		langs = append(langs, l)
	}
	slices.Sort(langs)
	data, _ := json.Marshal(weaviateRecord{Alias: w.s.pair.Alias(), Collection: rep.Active, Langs: langs})
	path := filepath.Join(w.s.env.GenDir(w.gen), weaviateFile)
	if err := fingerprint.WriteFileAtomic(path, data, fingerprint.FilePerm); err != nil && !fingerprint.Renamed(err) {
		return "", fmt.Errorf("record the alias swap: %w", err)
	}
	return warning, nil
}

func (w *weaviateWriter) Close() error { return nil }

//semguard:begin weaviate-object

// Schema versions what a Weaviate chunk object holds: 2 added the filter
// terms and the language (facets, lang). An index's backend id names it
// (engine's Backend.id), so that a collection holding fewer properties
// than the reader asks for is rebuilt by the next refresh; an id without
// it is 1.
const Schema = 2

// chunkObject is a chunk as a Weaviate object: its analyzed body joined
// by spaces (the collection tokenizes on whitespace, so BM25 sees the local
// backend's terms and lengths) and their language, its text, its metadata
// as JSON, and its filter terms. Every chunk holds the filter terms that
// select it, so that a search filters chunk by chunk: a file's, which the
// local backend keeps on the first chunk (first) alone, or its e-mail
// entry's (engine/query.go: filter terms).
func chunkObject(d, first *backend.Chunk) Object {
	ts := analyze.ForLanguage(d.Lang).Analyze([]byte(d.Body()))
	terms := make([]string, len(ts))
	for i, t := range ts {
		terms[i] = string(t.Term)
	}
	d.Tokens = len(ts)
	meta, _ := json.Marshal(chunkMeta{Start: d.StartLine, End: d.EndLine, Section: d.Section, Title: d.Title, Page: d.Page, Attach: d.Attach, Defs: d.Defs})
	facets := first.Facets
	if backend.MayAttach(d.Path) {
		facets = d.Facets
	}
	return Object{ChunkID: wireID(record.ChunkID(d.Path, d.Ord)), Path: d.Path, Text: d.Text,
		Tokens: strings.Join(terms, " "), Meta: string(meta), Facets: facets, Lang: d.Lang}
}

// chunkMeta is the stored metadata of a chunk object.
type chunkMeta struct {
	Start   int    `json:"s"`
	End     int    `json:"e"`
	Section string `json:"sec,omitempty"`
	Title   string `json:"t,omitempty"`
	Page    int    `json:"p,omitempty"`
	Attach  string `json:"a,omitempty"` // the e-mail attachment the chunk is from
	// Defs are the definitions a code chunk holds, returned with its
	// hits; unlike the local backend's, they are not searchable by name.
	Defs []backend.ChunkDef `json:"d,omitempty"`
}

// wireID is a chunk ID as Weaviate stores it: "path#ordinal" (a NUL has no
// place in a text property); the last '#' splits it back.
func wireID(id string) string { return strings.Replace(id, "\x00", "#", 1) }

func wireIDs(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = wireID(id)
	}
	return out
}

//semguard:end weaviate-object

// fromWire is the chunk ID of a stored chunk id.
func fromWire(id string) string {
	i := strings.LastIndexByte(id, '#')
	if i < 0 {
		return id
	}
	return id[:i] + "\x00" + id[i+1:]
}

// DropIndex removes the Weaviate state of this root (index reset): both
// collections of its pair and its index id. It returns what it removed.
func DropIndex(ctx context.Context, env Env, sc *fingerprint.Sidecar) (string, error) {
	s, err := openStorage(env, sc)
	if err != nil {
		return "", err
	}
	if err := s.pair.Drop(ctx); err != nil {
		return "", fmt.Errorf("drop weaviate collections: %w", err)
	}
	if err := forgetID(env); err != nil {
		return "", fmt.Errorf("remove the weaviate index id: %w", err)
	}
	return "weaviate:" + s.pair.Alias(), nil
}
