package weaviate

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/fingerprint"
)

// Orphans lists the indexes (aliases) autorag made in the
// configured cluster that this root's index does not name, with their
// collections: what a removed .autorag, a reset that could not reach the
// cluster, or another machine's root left there. Nothing is changed. In a
// cluster other users share, these include their indexes: scope each
// user to their own collections (an API key, a tenant) before dropping.
func Orphans(ctx context.Context, env Env) (map[string][]string, error) {
	c, own, err := orphanScope(env)
	if err != nil {
		return nil, err
	}
	names, err := c.ListCollections(ctx)
	if err != nil {
		return nil, fmt.Errorf("list collections: %w", err)
	}
	prefix, err := env.prefix()
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, n := range names {
		if alias, ok := aliasOfCollection(n); ok && alias != own && inScope(alias, prefix) {
			out[alias] = append(out[alias], n)
		}
	}
	return out, nil
}

// DropOrphans drops the given aliases that Orphans could
// list (never this root's own, nothing autorag did not name) with their
// collections, and returns those dropped. This root's index is not
// touched, so no lock is taken.
func DropOrphans(ctx context.Context, env Env, aliases []string) ([]string, error) {
	c, own, err := orphanScope(env)
	if err != nil {
		return nil, err
	}
	prefix, err := env.prefix()
	if err != nil {
		return nil, err
	}
	var dropped []string
	for _, a := range aliases {
		if _, ok := aliasOfCollection(a); a == own || !ok || !inScope(a, prefix) {
			continue
		}
		if err := NewPair(c, a, Settings{}).Drop(ctx); err != nil {
			return dropped, fmt.Errorf("drop %s: %w", a, err)
		}
		dropped = append(dropped, a)
	}
	slices.Sort(dropped)
	return dropped, nil
}

// orphanScope is the cluster's client and this root's own alias ("" when
// it has none), found without making an id.
func orphanScope(env Env) (*Client, string, error) {
	if env.URL == "" {
		return nil, "", backend.Usagef("--orphans needs the cluster: set AUTORAG_WEAVIATE_URL")
	}
	c, err := New(Config{URL: env.URL, APIKey: env.APIKey})
	if err != nil {
		return nil, "", backend.Usagef("%v", err)
	}
	own := ""
	if _, err := os.Stat(env.idPath()); err == nil {
		if own, err = IndexAlias(env, nil); err != nil {
			return nil, "", err
		}
	} else if sc, err := fingerprint.ReadSidecar(env.Sidecar); err == nil && backend.NameOf(sc) == backend.Weaviate {
		if r, err := (&weaviateStorage{env: env}).record(sc.Generation); err == nil {
			own = r.Alias
		}
	}
	return c, own, nil
}

// aliasOfCollection is the alias a collection autorag made belongs to:
// "Autorag_<id>" of "Autorag_<id>_<rest>", "Autorag_<ns>_<id>" of
// "Autorag_<ns>_<id>_<rest>" (a namespace is never an id).
func aliasOfCollection(name string) (string, bool) {
	rest, ok := strings.CutPrefix(name, aliasPrefix)
	if !ok {
		return "", false
	}
	first, after, _ := strings.Cut(rest, "_")
	if validID(first) {
		return aliasPrefix + first, true
	}
	id, _, _ := strings.Cut(after, "_")
	if !validNamespace(first) || !validID(id) {
		return "", false
	}
	return aliasPrefix + first + "_" + id, true
}

// inScope says whether alias is one this root's configuration may list
// and drop: with a namespace, only that namespace's; without, any.
func inScope(alias, prefix string) bool {
	if prefix == aliasPrefix {
		return true
	}
	rest, ok := strings.CutPrefix(alias, prefix)
	return ok && validID(rest)
}
