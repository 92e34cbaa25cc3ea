package weaviate

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

// TestHealthSeesADroppedMember: answers recorded from the loopback cluster
// 45 s after node 3 was killed, when memberlist had dropped it and /v1/nodes
// listed only node1 and node2, both HEALTHY. The Raft configuration still
// names node3, so the cluster is degraded: a write then reaches one replica
// of two and Weaviate reports success.
func TestHealthSeesADroppedMember(t *testing.T) {
	files := map[string]string{
		"/v1/nodes":              "testdata/nodes-node3-dropped.json",
		"/v1/cluster/statistics": "testdata/statistics-node3-dropped.json",
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, err := os.ReadFile(files[r.URL.Path])
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Write(data)
	}))
	defer srv.Close()
	c, err := New(Config{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	err = c.Health(context.Background())
	if !errors.Is(err, ErrDegraded) || !strings.Contains(err.Error(), "node3 not a member") {
		t.Fatalf("health with node3 dropped from the member list: %v; want degraded naming node3", err)
	}
}
