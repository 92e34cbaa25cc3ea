package weaviate

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"testing"
)

// The scoping tests run against a cluster with API-key authentication and
// RBAC on (scripts/weaviate-cluster.sh with WEAVIATE_ROOT_KEY):
// AUTORAG_WEAVIATE_AUTH_URL is its REST endpoint, AUTORAG_WEAVIATE_AUTH_KEY
// the root key, AUTORAG_WEAVIATE_AUTH_GRPC its gRPC address. As root they
// make two database users, each with the role docs/WEAVIATE.md tells an
// administrator to make: every permission autorag needs, on the names
// that start with the user's namespace prefix.

// scopeCluster is the root's client of the authenticated cluster.
func scopeCluster(t *testing.T) (*Client, string) {
	t.Helper()
	u, key := os.Getenv("AUTORAG_WEAVIATE_AUTH_URL"), os.Getenv("AUTORAG_WEAVIATE_AUTH_KEY")
	if u == "" || key == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set but AUTORAG_WEAVIATE_AUTH_URL/_KEY are not: .ci/run must start the authenticated node")
		}
		t.Skip("AUTORAG_WEAVIATE_AUTH_URL/_KEY unset: start a node with WEAVIATE_ROOT_KEY (docs/WEAVIATE.md)")
	}
	c, err := New(Config{URL: u, APIKey: key})
	if err != nil {
		t.Fatal(err)
	}
	return c, u
}

// scopePermissions are the permissions of a user's role: collections,
// data and aliases whose names match prefix*, and reading the nodes and
// the cluster (autorag checks the cluster's health around its writes).
func scopePermissions(prefix string) []map[string]any {
	// GraphQL, which autorag searches through, needs read_collections on
	// every collection (its schema introspection): a user sees the names
	// and properties of every collection, never their objects.
	ps := []map[string]any{{"action": "read_collections", "collections": map[string]any{"collection": "*"}}}
	for _, a := range []string{"create_collections", "update_collections", "delete_collections"} {
		ps = append(ps, map[string]any{"action": a, "collections": map[string]any{"collection": prefix + "*"}})
	}
	// Data permissions name their collections under "data": given under
	// "collections" they apply to every collection.
	for _, a := range []string{"create_data", "read_data", "update_data", "delete_data"} {
		ps = append(ps, map[string]any{"action": a, "data": map[string]any{"collection": prefix + "*"}})
	}
	for _, a := range []string{"create_aliases", "read_aliases", "update_aliases", "delete_aliases"} {
		ps = append(ps, map[string]any{"action": a, "aliases": map[string]any{"alias": prefix + "*", "collection": prefix + "*"}})
	}
	ps = append(ps, map[string]any{"action": "read_nodes", "nodes": map[string]any{"verbosity": "minimal"}},
		map[string]any{"action": "read_nodes", "nodes": map[string]any{"verbosity": "verbose", "collection": prefix + "*"}},
		map[string]any{"action": "read_cluster", "cluster": map[string]any{}})
	return ps
}

// scopedUser makes a database user whose role is scoped to prefix and
// returns its key; the user and the role are deleted at the end.
func scopedUser(t *testing.T, root *Client, name, prefix string) string {
	t.Helper()
	ctx := testContext(t)
	var made struct {
		APIKey string `json:"apikey"`
	}
	if err := root.do(ctx, "create user", http.MethodPost, "/v1/users/db/"+name, map[string]any{}, &made); err != nil {
		t.Fatal(err)
	}
	role := map[string]any{"name": name, "permissions": scopePermissions(prefix)}
	if err := root.do(ctx, "create role", http.MethodPost, "/v1/authz/roles", role, nil); err != nil {
		t.Fatal(err)
	}
	assign := map[string]any{"roles": []string{name}, "userType": "db"}
	if err := root.do(ctx, "assign role", http.MethodPost, "/v1/authz/users/"+name+"/assign", assign, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx := context.Background()
		_ = root.do(ctx, "delete user", http.MethodDelete, "/v1/users/db/"+name, nil, nil)
		_ = root.do(ctx, "delete role", http.MethodDelete, "/v1/authz/roles/"+name, nil, nil)
	})
	return made.APIKey
}

// TestAPIKeyScopesUsersToTheirNamespace: two users, each with a key whose
// role covers the names of their own namespace, build an index each (a
// pair of collections behind an alias, over REST and over gRPC); neither
// can search, read, count, write, re-point or drop the other's, and the
// other's index is intact afterwards. (Each sees the other's collection
// names: GraphQL needs the whole schema, see scopePermissions.)
func TestAPIKeyScopesUsersToTheirNamespace(t *testing.T) {
	root, u := scopeCluster(t)
	run := rand.IntN(1 << 20)
	type user struct {
		name, alias string
		c           *Client
		p           *Pair
	}
	var users []*user
	for i, n := range []string{"alice", "bob"} {
		name := fmt.Sprintf("%s%d", n, run)
		prefix := "Autorag_" + name + "_"
		cfg := Config{URL: u, APIKey: scopedUser(t, root, name, prefix)}
		if i == 1 {
			cfg.GRPC = os.Getenv("AUTORAG_WEAVIATE_AUTH_GRPC")
		}
		c, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		us := &user{name: name, alias: prefix + "0123456789abcdef", c: c}
		us.p = NewPair(c, us.alias, Settings{})
		t.Cleanup(func() { _ = NewPair(root, us.alias, Settings{}).Drop(context.Background()) })
		if _, err := us.p.Build(testContext(t), "e1", corpus(50, uint64(i+1))); err != nil {
			t.Fatalf("%s builds in their namespace: %v", n, err)
		}
		users = append(users, us)
	}
	alice, bob := users[0], users[1]
	ctx := testContext(t)
	bobColl, err := root.ResolveAlias(ctx, bob.alias)
	if err != nil {
		t.Fatal(err)
	}
	refused := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrRefused) && !errors.Is(err, ErrNotFound) {
			t.Errorf("alice %s of bob's index: %v, want refused", what, err)
		}
	}
	q := Query{Mode: BM25, Tokens: "retry backoff", K: 5}
	_, err = alice.c.Search(ctx, bob.alias, q, Settings{})
	refused("searches the alias", err)
	_, err = alice.c.Search(ctx, bobColl, q, Settings{})
	refused("searches the collection", err)
	_, err = alice.c.Fetch(ctx, bobColl, []string{"doc00001.md#0"}, Settings{})
	refused("fetches", err)
	refused("imports into", alice.c.Import(ctx, bobColl, corpus(3, 9), Settings{Retries: 1}))
	refused("deletes from", alice.c.Delete(ctx, bobColl, []string{"doc00001.md#0"}, Settings{Retries: 1}))
	aliceColl, err := alice.c.ResolveAlias(ctx, alice.alias)
	if err != nil {
		t.Fatal(err)
	}
	refused("re-points the alias", alice.c.SetAlias(ctx, bob.alias, aliceColl))
	refused("drops a collection", alice.c.DropCollection(ctx, bobColl))
	refused("drops the alias", alice.c.DeleteAlias(ctx, bob.alias))
	_, err = alice.c.Count(ctx, bob.alias)
	refused("counts", err)
	if got, err := root.ResolveAlias(ctx, bob.alias); err != nil || got != bobColl {
		t.Errorf("bob's alias names %q (%v) after alice's attempts, want %s", got, err, bobColl)
	}
	if n, err := root.Count(ctx, bob.alias); err != nil || n != 50 {
		t.Errorf("bob's index holds %d objects (%v), want 50", n, err)
	}
	if hits, err := bob.c.Search(ctx, bob.alias, q, Settings{}); err != nil || len(hits) == 0 {
		t.Errorf("bob searches his own index: %d hits, %v", len(hits), err)
	}
}
