package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// weaviateScoped runs two users' roots through the CLI against a cluster
// with API-key authentication and RBAC (AUTORAG_WEAVIATE_AUTH_URL, root
// key AUTORAG_WEAVIATE_AUTH_KEY): each user gets a database user and the
// role of docs/WEAVIATE.md on their namespace, and refreshes a root with
// their key and AUTORAG_WEAVIATE_NAMESPACE. Each answers from its own
// documents; alice's index reset --orphans --yes, with her namespace
// (bob's index is not hers to list) and without it (it is listed, and its
// drop is refused), leaves bob's index answering.
func (h *harness) weaviateScoped() outcome {
	o := outcome{Scenario: "weaviate × two users on one cluster, API keys scoped to their namespace by RBAC"}
	base, rootKey := os.Getenv("AUTORAG_WEAVIATE_AUTH_URL"), os.Getenv("AUTORAG_WEAVIATE_AUTH_KEY")
	if base == "" || rootKey == "" {
		o.Skipped = "AUTORAG_WEAVIATE_AUTH_URL/_KEY not set (docs/WEAVIATE.md)"
		return o
	}
	step := func(what string, ok bool) {
		o.Trials++
		if !ok {
			o.fail("%s", what)
		}
	}
	run := rand.IntN(1 << 20)
	envs := map[string][]string{}
	roots := map[string]string{}
	for _, u := range []string{"alice", "bob"} {
		name := fmt.Sprintf("%s%d", u, run)
		key, cleanup, err := scopedUser(base, rootKey, name)
		if err != nil {
			o.fail("setup %s: %v", u, err)
			return o
		}
		defer cleanup()
		root, err := os.MkdirTemp(h.work, "scoped-")
		if err != nil {
			o.fail("setup: %v", err)
			return o
		}
		defer os.RemoveAll(root)
		env := []string{"AUTORAG_BACKEND=weaviate", "AUTORAG_WEAVIATE_URL=" + base, "AUTORAG_WEAVIATE_API_KEY=" + key, "AUTORAG_WEAVIATE_NAMESPACE=" + name}
		defer h.cli.run(env, "--root", root, "index", "reset", "--yes")
		_ = os.WriteFile(filepath.Join(root, u+".md"), []byte("# "+u+"\n\nthe "+u+"word\n"), 0o644)
		r := h.cli.run(env, "--root", root, "refresh", "-q")
		step(u+": refresh in their namespace: "+r.String(), r.code == 0)
		envs[u], roots[u] = env, root
	}
	finds := func(u, word string) bool {
		r := h.cli.run(envs[u], "--root", roots[u], "query", "--json", "--mode", "bm25", "--no-cache", word)
		return r.code == 0 && strings.Contains(r.stdout, `"path"`)
	}
	step("alice finds her document", finds("alice", "aliceword"))
	step("alice does not find bob's", !finds("alice", "bobword"))
	r := h.cli.run(envs["alice"], "--root", roots["alice"], "index", "reset", "--orphans", "--yes")
	o.note("alice's index reset --orphans --yes: exit %d", r.code)
	step("bob's index survives alice's reset --orphans --yes", finds("bob", "bobword"))
	// Without her namespace alice's reset lists every index, bob's too,
	// and tries to drop it: Weaviate must refuse.
	noNS := slices.DeleteFunc(slices.Clone(envs["alice"]), func(v string) bool { return strings.HasPrefix(v, "AUTORAG_WEAVIATE_NAMESPACE=") })
	r = h.cli.run(noNS, "--root", roots["alice"], "index", "reset", "--orphans", "--yes")
	o.note("without the namespace: exit %d %.120s", r.code, strings.TrimSpace(r.stderr))
	step("alice's reset --orphans --yes without her namespace tries bob's index and fails", r.code != 0)
	step("bob's index survives it", finds("bob", "bobword"))
	return o
}

// scopedUser makes a database user with the namespace role of
// docs/WEAVIATE.md and returns its key and a cleanup.
func scopedUser(base, rootKey, name string) (string, func(), error) {
	do := func(method, path string, body, out any) error {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		var rd *bytes.Reader
		if body != nil {
			b, _ := json.Marshal(body)
			rd = bytes.NewReader(b)
		} else {
			rd = bytes.NewReader(nil)
		}
		req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(base, "/")+path, rd)
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+rootKey)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		if res.StatusCode >= 300 {
			return fmt.Errorf("%s %s: %s", method, path, res.Status)
		}
		if out != nil {
			return json.NewDecoder(res.Body).Decode(out)
		}
		return nil
	}
	var made struct {
		APIKey string `json:"apikey"`
	}
	if err := do(http.MethodPost, "/v1/users/db/"+name, map[string]any{}, &made); err != nil {
		return "", nil, err
	}
	cleanup := func() {
		_ = do(http.MethodDelete, "/v1/users/db/"+name, nil, nil)
		_ = do(http.MethodDelete, "/v1/authz/roles/"+name, nil, nil)
	}
	p := "Autorag_" + name + "_*"
	perms := []map[string]any{{"action": "read_collections", "collections": map[string]any{"collection": "*"}},
		{"action": "read_nodes", "nodes": map[string]any{"verbosity": "minimal"}},
		{"action": "read_nodes", "nodes": map[string]any{"verbosity": "verbose", "collection": p}},
		{"action": "read_cluster", "cluster": map[string]any{}}}
	for _, a := range []string{"create", "update", "delete"} {
		perms = append(perms, map[string]any{"action": a + "_collections", "collections": map[string]any{"collection": p}})
	}
	for _, a := range []string{"create", "read", "update", "delete"} {
		perms = append(perms, map[string]any{"action": a + "_data", "data": map[string]any{"collection": p}},
			map[string]any{"action": a + "_aliases", "aliases": map[string]any{"alias": p, "collection": p}})
	}
	if err := do(http.MethodPost, "/v1/authz/roles", map[string]any{"name": name, "permissions": perms}, nil); err != nil {
		cleanup()
		return "", nil, err
	}
	if err := do(http.MethodPost, "/v1/authz/users/"+name+"/assign", map[string]any{"roles": []string{name}, "userType": "db"}, nil); err != nil {
		cleanup()
		return "", nil, err
	}
	return made.APIKey, cleanup, nil
}
