package weaviate

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Pair keeps one alias served by two collections that hold the same state,
// updated by applying a change to the standby one, swapping the alias onto
// it and replaying the change on the other (see the package doc).
type Pair struct {
	c     *Client
	alias string
	s     Settings
	// stage, when set by a test, is called at each step of an update.
	stage func(name string)
}

// NewPair returns the pair behind alias. Alias must be a valid Weaviate
// collection name (a capital letter first, then letters, digits and _).
func NewPair(c *Client, alias string, s Settings) *Pair {
	return &Pair{c: c, alias: alias, s: s.withDefaults()}
}

// Alias is the name readers query.
func (p *Pair) Alias() string { return p.alias }

// Change is a change set: objects to insert or overwrite and chunk ids to
// delete. Deletes apply before upserts.
type Change struct {
	Upserts []Object
	Deletes []string
}

func (ch Change) chunkIDs() []string {
	ids := append([]string(nil), ch.Deletes...)
	for _, o := range ch.Upserts {
		ids = append(ids, o.ChunkID)
	}
	return ids
}

// Report says what an update did.
type Report struct {
	// Active is the collection the alias names after the update.
	Active string
	// Repaired is the number of chunks the standby collection was brought up
	// to date on before the change: the previous update's change, or what an
	// interrupted one left.
	Repaired int
}

func (p *Pair) names(epoch string) (a, b string) {
	return p.alias + "_" + epoch + "_a", p.alias + "_" + epoch + "_b"
}

func (p *Pair) journal() string { return p.alias + "_journal" }

// partner returns the other collection of active's pair.
func partner(active string) (string, error) {
	switch {
	case strings.HasSuffix(active, "_a"):
		return strings.TrimSuffix(active, "_a") + "_b", nil
	case strings.HasSuffix(active, "_b"):
		return strings.TrimSuffix(active, "_b") + "_a", nil
	}
	return "", fmt.Errorf("alias names %s, not a collection of a pair: %w", active, ErrRefused)
}

func (p *Pair) step(name string) {
	if p.stage != nil {
		p.stage(name)
	}
}

// Build makes a fresh pair for epoch holding objs, commits it by pointing the
// alias at it, and drops the alias's other collections. A failure before the
// alias moves leaves the committed state served.
func (p *Pair) Build(ctx context.Context, epoch string, objs []Object) (Report, error) {
	a, b := p.names(epoch)
	active, err := p.c.ResolveAlias(ctx, p.alias)
	if err != nil && !isNotFound(err) {
		return Report{}, err
	}
	if active == a || active == b {
		return Report{}, fmt.Errorf("build epoch %s: %w: the alias serves it", epoch, ErrRefused)
	}
	if err := p.writable(ctx, "build"); err != nil {
		return Report{}, err
	}
	if err := p.buildBoth(ctx, [2]string{a, b}, objs); err != nil {
		return Report{}, err
	}
	if err := p.ensureJournal(ctx); err != nil {
		return Report{}, err
	}
	if err := p.writable(ctx, "build "+epoch); err != nil {
		return Report{}, err
	}
	if err := p.c.SetAlias(ctx, p.alias, a); err != nil {
		return Report{}, err
	}
	if err := p.c.settle(ctx, nil); err != nil {
		return Report{Active: a}, fmt.Errorf("%w: %w", ErrUnfinished, err)
	}
	p.step("swapped")
	if err := p.writeJournal(ctx, nil); err != nil {
		return Report{Active: a}, fmt.Errorf("%w: %w", ErrUnfinished, err)
	}
	if _, err := p.Collect(ctx); err != nil {
		return Report{Active: a}, err
	}
	return Report{Active: a}, nil
}

// Commit applies ch: it first brings the standby collection up to the
// committed state (the previous update's change, or what an interrupted
// update left, both named by the journal), then journals ch's chunk ids,
// applies ch to the standby, swaps the alias onto it (the commit point) and
// waits until every member applied the swap. The collection the alias named
// before stays as it was until the next update: a query still running on
// it would see a half-applied state were the change replayed there at
// once. An error wrapping ErrUnfinished means the update is committed;
// any other error means the alias still names the old state.
func (p *Pair) Commit(ctx context.Context, ch Change) (Report, error) {
	standby, repaired, err := p.catchUp(ctx, "update")
	if err != nil {
		return Report{}, err
	}
	if err := p.writeJournal(ctx, ch.chunkIDs()); err != nil {
		return Report{}, err
	}
	p.step("journaled")
	if err := p.apply(ctx, standby, ch); err != nil {
		return Report{}, fmt.Errorf("apply to %s: %w", standby, err)
	}
	p.step("applied")
	if err := p.writable(ctx, "apply to "+standby); err != nil {
		return Report{}, err
	}
	if err := p.c.SwapAlias(ctx, p.alias, standby); err != nil {
		return Report{}, err
	}
	rep := Report{Active: standby, Repaired: repaired}
	if err := p.c.settle(ctx, nil); err != nil {
		return rep, fmt.Errorf("%w: %w", ErrUnfinished, err)
	}
	p.step("swapped")
	return rep, nil
}

// Sync brings the standby collection up to the committed state now, as the
// next Commit would first, and clears the journal.
func (p *Pair) Sync(ctx context.Context) (int, error) {
	_, n, err := p.catchUp(ctx, "sync")
	if err != nil {
		return n, err
	}
	return n, p.writeJournal(ctx, nil)
}

// catchUp makes the standby collection equal the one the alias names on
// the chunks the journal lists, once the cluster is whole (writable) and
// every member took in the last swap (its wait may have failed): no member
// may still read the standby when it is written. It returns the standby's name and
// how many chunks it brought up to date.
func (p *Pair) catchUp(ctx context.Context, what string) (string, int, error) {
	active, err := p.c.ResolveAlias(ctx, p.alias)
	if err != nil {
		return "", 0, err
	}
	standby, err := partner(active)
	if err != nil {
		return "", 0, err
	}
	stats, err := p.c.health(ctx)
	if err != nil {
		return "", 0, fmt.Errorf("%s: %w", what, err)
	}
	if err := p.c.settle(ctx, stats); err != nil {
		return "", 0, fmt.Errorf("%s: %w", what, err)
	}
	n, err := p.recover(ctx, active, standby)
	if err != nil {
		return "", 0, fmt.Errorf("bring %s up to date: %w", standby, err)
	}
	return standby, n, nil
}

// writable checks, before and after a pair's writes, that every member of
// the cluster is healthy. Weaviate counts a write's consistency level among
// the replicas it can reach, so with a node down a QUORUM write lands on one
// replica of two and succeeds, and readers at ONE then see that shard's old
// state beside other shards' new one. Checking before the first write and
// again before the alias moves turns that into ErrDegraded: the update fails
// with the committed state served, and the journal repairs the standby
// collection on the next one.
func (p *Pair) writable(ctx context.Context, what string) error {
	if err := p.c.Health(ctx); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

func (p *Pair) apply(ctx context.Context, collection string, ch Change) error {
	if err := p.c.Delete(ctx, collection, ch.Deletes, p.s); err != nil {
		return err
	}
	for start := 0; start < len(ch.Upserts); start += p.s.BatchSize * p.s.Concurrency {
		part := ch.Upserts[start:min(start+p.s.BatchSize*p.s.Concurrency, len(ch.Upserts))]
		if err := p.c.Import(ctx, collection, part, p.s); err != nil {
			return err
		}
		p.step("batch")
	}
	return nil
}

// recover makes standby equal active on the chunks the journal names: the
// previous update's change, or an interrupted update's.
func (p *Pair) recover(ctx context.Context, active, standby string) (int, error) {
	ids, err := p.readJournal(ctx)
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	objs, err := p.c.Fetch(ctx, active, ids, p.s)
	if err != nil {
		return 0, err
	}
	if err := p.c.Delete(ctx, standby, ids, p.s); err != nil {
		return 0, err
	}
	if err := p.c.Import(ctx, standby, objs, p.s); err != nil {
		return 0, err
	}
	return len(ids), nil
}

// Collect drops the alias's collections other than the pair it names (older
// epochs, failed builds) and returns their names.
func (p *Pair) Collect(ctx context.Context) ([]string, error) {
	active, err := p.c.ResolveAlias(ctx, p.alias)
	if err != nil {
		return nil, err
	}
	standby, err := partner(active)
	if err != nil {
		return nil, err
	}
	names, err := p.c.ListCollections(ctx)
	if err != nil {
		return nil, err
	}
	var dropped []string
	for _, n := range names {
		if !strings.HasPrefix(n, p.alias+"_") || n == active || n == standby || n == p.journal() {
			continue
		}
		if err := p.c.DropCollection(ctx, n); err != nil {
			return dropped, err
		}
		dropped = append(dropped, n)
	}
	return dropped, nil
}

// Drop removes the alias, its collections and its journal.
func (p *Pair) Drop(ctx context.Context) error {
	if err := p.c.DeleteAlias(ctx, p.alias); err != nil {
		return err
	}
	names, err := p.c.ListCollections(ctx)
	if err != nil {
		return err
	}
	for _, n := range names {
		if strings.HasPrefix(n, p.alias+"_") {
			if err := p.c.DropCollection(ctx, n); err != nil {
				return err
			}
		}
	}
	return nil
}

// The journal is one object in its own collection: the chunk ids of the
// update in progress.
var journalID = ObjectID("\x00journal")

func (p *Pair) ensureJournal(ctx context.Context) error {
	def := map[string]any{
		"class": p.journal(), "vectorizer": "none",
		"properties": []any{map[string]any{
			"name": "chunkIds", "dataType": []string{"text[]"},
			"indexFilterable": false, "indexSearchable": false,
		}},
		"replicationConfig": map[string]any{"factor": p.s.Replicas},
	}
	err := p.c.do(ctx, "create journal", http.MethodPost, "/v1/schema", def, nil)
	if err != nil && strings.Contains(err.Error(), "already exists") {
		return nil
	}
	return err
}

func (p *Pair) writeJournal(ctx context.Context, ids []string) error {
	if ids == nil {
		ids = []string{}
	}
	obj := map[string]any{"class": p.journal(), "id": journalID, "properties": map[string]any{"chunkIds": ids}}
	path := "/v1/batch/objects?consistency_level=" + url.QueryEscape(p.s.Write)
	return p.c.retry(ctx, p.s.Retries, func() error {
		var out batchResults
		if err := p.c.do(ctx, "write journal", http.MethodPost, path, map[string]any{"objects": []any{obj}}, &out); err != nil {
			return err
		}
		if msgs := out.messages(); len(msgs) > 0 {
			return p.c.objectErrors(ctx, "write journal", 1, msgs)
		}
		return nil
	})
}

func (p *Pair) readJournal(ctx context.Context) ([]string, error) {
	var out struct {
		Properties struct {
			ChunkIDs []string `json:"chunkIds"`
		} `json:"properties"`
	}
	path := fmt.Sprintf("/v1/objects/%s/%s?consistency_level=%s", url.PathEscape(p.journal()), journalID, p.s.Write)
	err := p.c.do(ctx, "read journal", http.MethodGet, path, nil, &out)
	if isNotFound(err) {
		return nil, nil
	}
	return out.Properties.ChunkIDs, err
}
