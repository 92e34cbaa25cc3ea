package agentapi

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/envelope"
	"github.com/autorag/autorag/lock"
	"github.com/autorag/autorag/mirror"
	"github.com/autorag/autorag/upgrade"
)

// Options configure an API.
type Options struct {
	CacheBytes    int64         // in-memory query cache; 0 caches nothing
	StaleInterval time.Duration // least time between two sources checks; 0 = 1 s
	Command       string        // recorded as the lock holder's command by Refresh
}

// API answers agents' requests for one root.
type API struct {
	e     *engine.Engine
	svc   *engine.Service
	stale *staleness
	opts  Options
}

// New returns an API over e. Close releases it.
func New(e *engine.Engine, o Options) *API {
	if o.StaleInterval <= 0 {
		o.StaleInterval = time.Second
	}
	return &API{e: e, svc: engine.NewService(e, o.CacheBytes), stale: newStaleness(e, o.StaleInterval), opts: o}
}

// Engine is the engine the API runs on.
func (a *API) Engine() *engine.Engine { return a.e }

// Service is the query service every search goes through.
func (a *API) Service() *engine.Service { return a.svc }

// Root is the corpus root.
func (a *API) Root() string { return a.e.Layout.Root }

// Close waits for a running sources check and closes the service.
func (a *API) Close() error {
	a.stale.close()
	return a.svc.Close()
}

// SearchRequest is one search (the options of `autorag query`).
type SearchRequest struct {
	Query   string `json:"query" jsonschema:"what to search for, in words"`
	K       *int   `json:"k,omitempty" jsonschema:"number of results, 1 to 1000 (default 10 when left out)"`
	Mode    string `json:"mode,omitempty" jsonschema:"hybrid (default when the index has vectors: words and meaning), bm25 (exact words, identifiers, error messages) or vector (meaning only, for paraphrases)"`
	Path    string `json:"path,omitempty" jsonschema:"only paths matching this glob (*, ?, **, [...], {a,b}; without / it matches in any directory; a directory means its whole subtree; a leading ! excludes)"`
	PerFile int    `json:"per_file,omitempty" jsonschema:"results per source file (default 1)"`
	Explain bool   `json:"explain,omitempty" jsonschema:"say how each result's score came about"`
	// Filters and Type are `query --filter` and `--type`.
	Filters []string `json:"filters,omitempty" jsonschema:"only files whose metadata has every key=value (author=Ada, tag=ops, from=..., a frontmatter field)"`
	Type    string   `json:"type,omitempty" jsonschema:"only files of this type: doc, code, data (YAML, JSON, TOML, XML, CSV), pdf, office, email or html"`
	// NoCollapse is `query --no-collapse`.
	NoCollapse bool `json:"no_collapse,omitempty" jsonschema:"list copies of the same passage in other files separately instead of as also_in"`
}

// MaxK bounds a request's k, DefaultK is k when a request leaves it out.
const (
	MaxK     = 1000
	DefaultK = 10
)

// ResolveK is the one rule for k that the CLI, MCP and HTTP share: left
// out (nil) it is DefaultK, given it must be between 1 and MaxK.
func ResolveK(k *int) (int, error) {
	switch {
	case k == nil:
		return DefaultK, nil
	case *k < 1 || *k > MaxK:
		return 0, usagef("k must be between 1 and %d, got %d", MaxK, *k)
	}
	return *k, nil
}

func (r SearchRequest) options() (engine.QueryOptions, error) {
	q := strings.TrimSpace(r.Query)
	k, err := ResolveK(r.K)
	switch {
	case q == "":
		return engine.QueryOptions{}, usagef("query is empty")
	case err != nil:
		return engine.QueryOptions{}, err
	case r.PerFile < 0:
		return engine.QueryOptions{}, usagef("per_file must be at least 1, got %d", r.PerFile)
	}
	perFile := max(r.PerFile, 1)
	o := engine.QueryOptions{Text: r.Query, K: k, PerFile: perFile, PathGlob: r.Path, Mode: r.Mode, Explain: r.Explain,
		Filters: r.Filters, Type: r.Type, NoCollapse: r.NoCollapse}
	if err := engine.CheckFilters(o); err != nil {
		return engine.QueryOptions{}, usagef("%v", err)
	}
	return o, nil
}

// Search answers r from the committed generation: the envelope of
// `autorag query --json` with the same options, plus stale (see doc.go).
func (a *API) Search(ctx context.Context, r SearchRequest) (*envelope.Query, error) {
	o, err := r.options()
	if err != nil {
		return nil, err
	}
	res, cached, err := a.svc.Query(ctx, o)
	if err != nil {
		return nil, err
	}
	out := envelope.NewQuery(r.Query, o.K, res)
	out.Cached, out.TookMS = cached, res.TookMS
	out.Embedder, out.Upgrade = upgrade.Served(a.svc.Engine(), res.Generation)
	if v, ok := a.stale.get(ctx, res.Fingerprint); ok {
		out.Stale, out.StaleCheckedAt = &v.changed, &v.at
	}
	return out, nil
}

// RefreshRequest is one refresh.
type RefreshRequest struct {
	Paths []string `json:"paths,omitempty" jsonschema:"refresh only these paths (files or directories, relative to the root), without walking the tree"`
}

// Refresh brings the index up to date under the refresh lock, without
// waiting for it: a lock held by another process is a busy envelope, not
// an error.
func (a *API) Refresh(ctx context.Context, r RefreshRequest) (*envelope.Refresh, error) {
	if err := CheckRoot(a.Root()); err != nil {
		return nil, err
	}
	// Staged with a slow embedder: the first commit only; the upgrade is
	// the watch's (serve --watch, mcp --watch) or `autorag upgrade`'s.
	res, _, err := upgrade.Refresh(ctx, a.e, engine.RefreshOptions{Paths: r.Paths, Command: a.opts.Command})
	if errors.Is(err, lock.ErrBusy) {
		return envelope.Busy(err), nil
	}
	if err != nil {
		return nil, err
	}
	a.stale.invalidate()
	if res.Failures == nil {
		res.Failures = []mirror.Failure{}
	}
	env := envelope.NewRefresh(res)
	env.Embedder, env.Upgrade = upgrade.Served(a.e, res.Generation)
	return env, nil
}

// Status reports the committed index, the last refresh, the lock holder
// and whether the sources changed (`autorag status --json`).
func (a *API) Status(ctx context.Context) (*envelope.Status, error) {
	if err := a.e.Layout.CheckRoot(); err != nil {
		return nil, err
	}
	st, err := a.e.Status(ctx)
	if err != nil {
		return nil, err
	}
	env := envelope.NewStatus(st)
	env.Upgrade = upgrade.Status(ctx, a.e)
	return env, nil
}

// ErrRootGone reports a root that is no longer a directory: a refresh
// would create it again, empty, and commit an empty index over the last.
var ErrRootGone = errors.New("root is gone")

// CheckRoot reports whether root is still a directory.
func CheckRoot(root string) error {
	fi, err := os.Stat(root)
	if err == nil && fi.IsDir() {
		return nil
	}
	if err == nil {
		err = errors.New("not a directory")
	}
	return fmt.Errorf("%w: %s: %v (the last committed index is untouched)", ErrRootGone, root, err)
}

// usagef is an error of the caller's request (envelope code "usage").
func usagef(format string, args ...any) error {
	return fmt.Errorf("%w: %s", engine.ErrUsage, fmt.Sprintf(format, args...))
}
