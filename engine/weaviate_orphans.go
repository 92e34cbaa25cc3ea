package engine

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/autorag/autorag/engine/backend/weaviate"
	"github.com/autorag/autorag/fingerprint"
)

// WeaviateOrphans lists the indexes (aliases) autorag made in the
// configured cluster that this root's index does not name, with their
// collections: what a removed .autorag, a reset that could not reach the
// cluster, or another machine's root left there. Nothing is changed. In a
// cluster other users share, these include their indexes: scope each
// user to their own collections (an API key, a tenant) before dropping.
func (e *Engine) WeaviateOrphans(ctx context.Context) (map[string][]string, error) {
	c, own, err := e.orphanScope()
	if err != nil {
		return nil, err
	}
	names, err := c.ListCollections(ctx)
	if err != nil {
		return nil, fmt.Errorf("list collections: %w", err)
	}
	out := map[string][]string{}
	for _, n := range names {
		if alias, ok := aliasOfCollection(n); ok && alias != own {
			out[alias] = append(out[alias], n)
		}
	}
	return out, nil
}

// DropWeaviateOrphans drops the given aliases that WeaviateOrphans could
// list (never this root's own, nothing autorag did not name) with their
// collections, and returns those dropped. This root's index is not
// touched, so no lock is taken.
func (e *Engine) DropWeaviateOrphans(ctx context.Context, aliases []string) ([]string, error) {
	c, own, err := e.orphanScope()
	if err != nil {
		return nil, err
	}
	var dropped []string
	for _, a := range aliases {
		if a == own || !strings.HasPrefix(a, aliasPrefix) {
			continue
		}
		if err := weaviate.NewPair(c, a, weaviate.Settings{}).Drop(ctx); err != nil {
			return dropped, fmt.Errorf("drop %s: %w", a, err)
		}
		dropped = append(dropped, a)
	}
	slices.Sort(dropped)
	return dropped, nil
}

// orphanScope is the cluster's client and this root's own alias ("" when
// it has none), found without making an id.
func (e *Engine) orphanScope() (*weaviate.Client, string, error) {
	b := e.Settings.Backend
	if b.URL == "" {
		return nil, "", usagef("--orphans needs the cluster: set AUTORAG_WEAVIATE_URL")
	}
	c, err := weaviate.New(weaviate.Config{URL: b.URL, APIKey: b.APIKey})
	if err != nil {
		return nil, "", usagef("%v", err)
	}
	own := ""
	if _, err := os.Stat(e.Layout.weaviateIDPath()); err == nil {
		if own, err = e.weaviateAlias(nil); err != nil {
			return nil, "", err
		}
	} else if sc, err := fingerprint.ReadSidecar(e.Layout.SidecarPath()); err == nil && backendOf(sc) == BackendWeaviate {
		if r, err := (&weaviateStorage{l: e.Layout}).record(sc.Generation); err == nil {
			own = r.Alias
		}
	}
	return c, own, nil
}

// aliasOfCollection is the alias a collection autorag made belongs to:
// "Autorag_<id>" of "Autorag_<id>_<rest>".
func aliasOfCollection(name string) (string, bool) {
	rest, ok := strings.CutPrefix(name, aliasPrefix)
	if !ok {
		return "", false
	}
	id, _, _ := strings.Cut(rest, "_")
	if !validID(id) {
		return "", false
	}
	return aliasPrefix + id, true
}
