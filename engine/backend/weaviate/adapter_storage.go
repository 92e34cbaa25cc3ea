package weaviate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/fingerprint"
)

// weaviateStorage is the Weaviate backend: the states of a root are a pair
// of collections behind one alias (Pair), updated by the change
// set. The commit point is the alias swap; the generation directory records
// it in weaviateFile after the swap succeeds, and the sidecar, written
// next, names that directory. Readers query the alias.
type weaviateStorage struct {
	env  Env
	c    *Client
	pair *Pair
	ws   Settings
}

var _ backend.Storage = (*weaviateStorage)(nil)

// weaviateFile is the client-side record of a committed Weaviate state, in
// its generation directory (an artifact of the sidecar).
const weaviateFile = "weaviate.json"

// weaviateRecord is what weaviateFile holds.
type weaviateRecord struct {
	Alias      string   `json:"alias"`
	Collection string   `json:"collection"` // the one the alias named after the swap
	Langs      []string `json:"langs"`      // analysis languages of the chunks ("" = English)
}

// Env is what the Weaviate backend needs of a root: where its client-side
// records live and the configured cluster.
type Env struct {
	// Dir is the root's .autorag directory, which holds the index id
	// (IDFile); GenDir is the directory of a generation, which holds the
	// record of its state (weaviateFile).
	Dir    string
	GenDir func(gen string) string
	// Sidecar is the root's sidecar (orphans: the alias it names).
	Sidecar string
	// URL and APIKey reach the cluster; Shards and Replicas shape a new
	// collection (0 means 1).
	URL, APIKey      string
	Shards, Replicas int
	// GRPC is the node's gRPC address for imports ("" = REST); Namespace
	// starts every name the index makes (see IndexAlias).
	GRPC, Namespace string
}

// OpenStorage opens the Weaviate backend of this root. Shards and
// replicas are the configured ones, or those the sidecar sc recorded (a
// query reads at the consistency the collection was made for).
func OpenStorage(env Env, sc *fingerprint.Sidecar) (backend.Storage, error) {
	s, err := openStorage(env, sc)
	if err != nil {
		return nil, err
	}
	return s, nil
}

func openStorage(env Env, sc *fingerprint.Sidecar) (*weaviateStorage, error) {
	if env.URL == "" {
		return nil, backend.Usagef("the index is stored in weaviate: set AUTORAG_WEAVIATE_URL to the cluster's url")
	}
	c, err := New(Config{URL: env.URL, APIKey: env.APIKey, GRPC: env.GRPC})
	if err != nil {
		return nil, backend.Usagef("%v", err)
	}
	ws := Settings{Shards: env.Shards, Replicas: env.Replicas}
	if sc != nil {
		ws.Shards, ws.Replicas = RecordedShape(sc.Settings["backend"])
	}
	alias, err := IndexAlias(env, sc)
	if err != nil {
		return nil, err
	}
	return &weaviateStorage{env: env, c: c, pair: NewPair(c, alias, ws), ws: ws}, nil
}

// RecordedShape reads shards and replicas back from a backend id.
func RecordedShape(id string) (shards, replicas int) {
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

func (s *weaviateStorage) record(gen string) (weaviateRecord, error) {
	var r weaviateRecord
	data, err := os.ReadFile(filepath.Join(s.env.GenDir(gen), weaviateFile))
	if err == nil {
		err = json.Unmarshal(data, &r)
	}
	if err != nil {
		return r, fmt.Errorf("read weaviate record of generation %s: %w", gen, err)
	}
	return r, nil
}

// Check accepts the committed state when its files are intact and the
// alias still names the collection it recorded. A cluster that cannot be
// reached fails the refresh; any other mismatch (a swap whose sidecar was
// never written, a wiped cluster) makes the next refresh a rebuild.
func (s *weaviateStorage) Check(ctx context.Context, sc *fingerprint.Sidecar) error {
	if err := fingerprint.Check(s.env.Dir, sc.Artifacts); err != nil {
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

// IsUnavailable reports a cluster that is down or degraded: the refresh
// fails (exit 3) rather than rebuilding.
func IsUnavailable(err error) bool {
	return errors.Is(err, ErrUnreachable) || errors.Is(err, ErrDegraded)
}

func (s *weaviateStorage) Open(sc *fingerprint.Sidecar) (backend.State, error) {
	r, err := s.record(sc.Generation)
	if err != nil {
		return nil, err
	}
	return &weaviateState{c: s.c, alias: r.Alias, langs: r.Langs, ws: s.ws,
		scoped: sc.Settings["analyzer"] == analyze.MultiVersion, schema: recordedSchema(sc.Settings["backend"])}, nil
}

func (s *weaviateStorage) Begin(_ context.Context, base, gen string) (backend.Writer, error) {
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

// Collect drops the alias's collections of older epochs (failed or
// superseded rebuilds).
func (s *weaviateStorage) Collect(ctx context.Context, _ *fingerprint.Sidecar) error {
	_, err := s.pair.Collect(ctx)
	return err
}
