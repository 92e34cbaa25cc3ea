package engine

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/zeebo/blake3"

	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/engine/backend/weaviate"
	"github.com/autorag/autorag/engine/record"
	"github.com/autorag/autorag/fingerprint"
)

// weaviateStorage is the Weaviate backend: the states of a root are a pair
// of collections behind one alias (weaviate.Pair), updated by the change
// set. The commit point is the alias swap; the generation directory records
// it in weaviateFile after the swap succeeds, and the sidecar, written
// next, names that directory. Readers query the alias.
type weaviateStorage struct {
	l    Layout
	c    *weaviate.Client
	pair *weaviate.Pair
	ws   weaviate.Settings
}

var _ storage = (*weaviateStorage)(nil)

// weaviateFile is the client-side record of a committed Weaviate state, in
// its generation directory (an artifact of the sidecar).
const weaviateFile = "weaviate.json"

// weaviateRecord is what weaviateFile holds.
type weaviateRecord struct {
	Alias      string   `json:"alias"`
	Collection string   `json:"collection"` // the one the alias named after the swap
	Langs      []string `json:"langs"`      // analysis languages of the chunks ("" = English)
}

// weaviateStorage opens the Weaviate backend of this root. Shards and
// replicas are the configured ones, or those the sidecar sc recorded (a
// query reads at the consistency the collection was made for).
func (e *Engine) weaviateStorage(sc *fingerprint.Sidecar) (*weaviateStorage, error) {
	b := e.Settings.Backend
	if b.URL == "" {
		return nil, usagef("the index is stored in weaviate: set AUTORAG_WEAVIATE_URL to the cluster's url")
	}
	c, err := weaviate.New(weaviate.Config{URL: b.URL, APIKey: b.APIKey})
	if err != nil {
		return nil, usagef("%v", err)
	}
	ws := weaviate.Settings{Shards: b.Shards, Replicas: b.Replicas}
	if sc != nil {
		ws.Shards, ws.Replicas = recordedShape(sc.Settings["backend"])
	}
	alias := aliasOf(e.Layout.Root)
	return &weaviateStorage{l: e.Layout, c: c, pair: weaviate.NewPair(c, alias, ws), ws: ws}, nil
}

// recordedShape reads shards and replicas back from a backend id.
func recordedShape(id string) (shards, replicas int) {
	return idField(id, "shards"), idField(id, "replicas")
}

// recordedSchema reads the object schema back from a backend id.
func recordedSchema(id string) int { return max(idField(id, "schema"), 1) }

// idField is the number a backend id gives key ("shards=3"); 0 if none.
func idField(id, key string) int {
	for _, f := range strings.Fields(id) {
		if k, v, _ := strings.Cut(f, "="); k == key {
			n, _ := strconv.Atoi(v)
			return n
		}
	}
	return 0
}

// aliasOf names a root's alias: one per root directory, so that several
// roots can share a cluster.
func aliasOf(root string) string {
	sum := blake3.Sum256([]byte(root))
	return "Autorag_" + hex.EncodeToString(sum[:8])
}

func (s *weaviateStorage) record(gen string) (weaviateRecord, error) {
	var r weaviateRecord
	data, err := os.ReadFile(filepath.Join(s.l.GenDir(gen), weaviateFile))
	if err == nil {
		err = json.Unmarshal(data, &r)
	}
	if err != nil {
		return r, fmt.Errorf("read weaviate record of generation %s: %w", gen, err)
	}
	return r, nil
}

// check accepts the committed state when its files are intact and the
// alias still names the collection it recorded. A cluster that cannot be
// reached fails the refresh; any other mismatch (a swap whose sidecar was
// never written, a wiped cluster) makes the next refresh a rebuild.
func (s *weaviateStorage) check(ctx context.Context, sc *fingerprint.Sidecar) error {
	if err := fingerprint.Check(s.l.Dir, sc.Artifacts); err != nil {
		return err
	}
	r, err := s.record(sc.Generation)
	if err != nil {
		return err
	}
	active, err := s.c.ResolveAlias(ctx, r.Alias)
	if err != nil {
		return err
	}
	if active != r.Collection {
		return fmt.Errorf("alias %s names %s, the sidecar recorded %s", r.Alias, active, r.Collection)
	}
	return nil
}

// unavailable reports a cluster that is down or degraded: the refresh
// fails (exit 3) rather than rebuilding.
func unavailable(err error) bool {
	return errors.Is(err, weaviate.ErrUnreachable) || errors.Is(err, weaviate.ErrDegraded)
}

func (s *weaviateStorage) open(sc *fingerprint.Sidecar) (state, error) {
	r, err := s.record(sc.Generation)
	if err != nil {
		return nil, err
	}
	return &weaviateState{c: s.c, alias: r.Alias, langs: r.Langs, ws: s.ws,
		scoped: sc.Settings["analyzer"] == analyze.MultiVersion, schema: recordedSchema(sc.Settings["backend"])}, nil
}

func (s *weaviateStorage) begin(_ context.Context, base, gen string) (stateWriter, error) {
	w := &weaviateWriter{s: s, gen: gen, rebuild: base == "", langs: map[string]bool{}}
	if base != "" {
		r, err := s.record(base)
		if err != nil {
			return nil, err
		}
		for _, l := range r.Langs {
			w.langs[l] = true
		}
	}
	return w, nil
}

// collect drops the alias's collections of older epochs (failed or
// superseded rebuilds).
func (s *weaviateStorage) collect(ctx context.Context, _ *fingerprint.Sidecar) error {
	_, err := s.pair.Collect(ctx)
	return err
}

// weaviateWriter gathers the change set and commits it in one Pair update:
// the journal makes an interrupted one converge on the next refresh.
type weaviateWriter struct {
	s       *weaviateStorage
	gen     string
	rebuild bool
	change  weaviate.Change
	langs   map[string]bool
}

var _ stateWriter = (*weaviateWriter)(nil)

// apply adds a part to the change. build.go hands every chunk of a file
// to one part, in order, so the file's first chunk, which holds its filter
// terms, is seen before the others.
func (w *weaviateWriter) apply(ctx context.Context, ch change) error {
	w.change.Deletes = append(w.change.Deletes, wireIDs(ch.deletes)...)
	var first *chunkDoc
	for i, d := range ch.upserts {
		if err := ctx.Err(); err != nil {
			return err
		}
		if first == nil || d.Path != first.Path {
			first = d
		}
		o := chunkObject(d, first)
		if ch.vecs != nil {
			o.Vector = ch.vecs[i]
		}
		w.langs[d.Lang] = true
		w.change.Upserts = append(w.change.Upserts, o)
	}
	return nil
}

// finish has nothing to make durable on the client: the state is written
// to the cluster by commit, in front of the swap.
func (w *weaviateWriter) finish(context.Context) error { return nil }

// commit imports the change into the standby collection and swaps the
// alias onto it (a rebuild: into a new epoch's pair), then records the
// swap in the generation directory.
func (w *weaviateWriter) commit(ctx context.Context) (string, error) {
	var rep weaviate.Report
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
	path := filepath.Join(w.s.l.GenDir(w.gen), weaviateFile)
	if err := fingerprint.WriteFileAtomic(path, data, fingerprint.FilePerm); err != nil && !fingerprint.Renamed(err) {
		return "", fmt.Errorf("record the alias swap: %w", err)
	}
	return warning, nil
}

func (w *weaviateWriter) close() error { return nil }

//semguard:begin weaviate-object

// chunkObject is a chunk as a Weaviate object: its analyzed body joined
// by spaces (the collection tokenizes on whitespace, so BM25 sees the local
// backend's terms and lengths) and their language, its text, its metadata
// as JSON, and its filter terms. Every chunk holds the filter terms that
// select it, so that a search filters chunk by chunk: a file's, which the
// local backend keeps on the first chunk (first) alone, or its e-mail
// entry's (see filter.go).
func chunkObject(d, first *chunkDoc) weaviate.Object {
	ts := analyze.ForLanguage(d.Lang).Analyze([]byte(d.body()))
	terms := make([]string, len(ts))
	for i, t := range ts {
		terms[i] = string(t.Term)
	}
	d.tokens = len(ts)
	meta, _ := json.Marshal(chunkMeta{Start: d.StartLine, End: d.EndLine, Section: d.Section, Title: d.Title, Page: d.Page, Attach: d.Attach})
	facets := first.Facets
	if mayAttach(d.Path) {
		facets = d.Facets
	}
	return weaviate.Object{ChunkID: wireID(record.ChunkID(d.Path, d.Ord)), Path: d.Path, Text: d.Text,
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

// dropRemote removes the Weaviate state of this root (index reset), when
// the committed index or the configuration says it is in Weaviate.
// It returns what it removed ("" for nothing).
func (e *Engine) dropRemote(ctx context.Context) (string, error) {
	sc, err := fingerprint.ReadSidecar(e.Layout.SidecarPath())
	if err != nil {
		sc = nil
	}
	if (sc == nil || backendOf(sc) != BackendWeaviate) && e.Settings.Backend.name() != BackendWeaviate {
		return "", nil
	}
	s, err := e.weaviateStorage(sc)
	if err != nil {
		return "", err
	}
	if err := s.pair.Drop(ctx); err != nil {
		return "", fmt.Errorf("drop weaviate collections: %w", err)
	}
	return "weaviate:" + s.pair.Alias(), nil
}
