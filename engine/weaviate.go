package engine

import (
	"context"

	"github.com/autorag/autorag/engine/backend/weaviate"
	"github.com/autorag/autorag/fingerprint"
)

// weaviateEnv is what the Weaviate backend (engine/backend/weaviate)
// needs of this root: its layout and the configured cluster.
func (e *Engine) weaviateEnv() weaviate.Env {
	b := e.Settings.Backend
	return weaviate.Env{Dir: e.Layout.Dir, GenDir: e.Layout.GenDir, Sidecar: e.Layout.SidecarPath(),
		URL: b.URL, APIKey: b.APIKey, Shards: b.Shards, Replicas: b.Replicas}
}

// weaviateAlias is the alias of this root's Weaviate index
// (weaviate.IndexAlias).
func (e *Engine) weaviateAlias(sc *fingerprint.Sidecar) (string, error) {
	return weaviate.IndexAlias(e.weaviateEnv(), sc)
}

// unavailable reports a Weaviate cluster that is down or degraded: the
// refresh fails (exit 3) rather than rebuilding.
func unavailable(err error) bool { return weaviate.IsUnavailable(err) }

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
	return weaviate.DropIndex(ctx, e.weaviateEnv(), sc)
}

// WeaviateOrphans lists the indexes (aliases) autorag made in the
// configured cluster that this root's index does not name, with their
// collections (weaviate.Orphans). Nothing is changed.
func (e *Engine) WeaviateOrphans(ctx context.Context) (map[string][]string, error) {
	return weaviate.Orphans(ctx, e.weaviateEnv())
}

// DropWeaviateOrphans drops the given aliases that WeaviateOrphans could
// list (never this root's own) with their collections, and returns those
// dropped (weaviate.DropOrphans).
func (e *Engine) DropWeaviateOrphans(ctx context.Context, aliases []string) ([]string, error) {
	return weaviate.DropOrphans(ctx, e.weaviateEnv(), aliases)
}
