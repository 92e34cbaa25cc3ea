package weaviate

import (
	"errors"
	"os"
	"reflect"
	"sort"
	"testing"
)

// grpcAddr is the gRPC address of the test cluster's first node
// (AUTORAG_WEAVIATE_GRPC; scripts/weaviate-cluster.sh prints it).
func grpcAddr(t testing.TB) string {
	t.Helper()
	a := os.Getenv("AUTORAG_WEAVIATE_GRPC")
	if a == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set but AUTORAG_WEAVIATE_GRPC is not: .ci/run must export it")
		}
		t.Skip("AUTORAG_WEAVIATE_GRPC unset: export the gRPC address `make weaviate-up` prints")
	}
	return a
}

// restClient is a client of the test cluster that imports over REST.
func restClient(t testing.TB) *Client {
	t.Helper()
	c := testCluster(t)
	r, err := New(Config{URL: c.base, APIKey: c.key})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// grpcClient is a client of the test cluster that imports over gRPC.
func grpcClient(t testing.TB) *Client {
	t.Helper()
	rest := testCluster(t)
	c, err := New(Config{URL: rest.base, APIKey: rest.key, GRPC: grpcAddr(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// TestGRPCImportStoresWhatRESTDoes: the same objects imported over gRPC and
// over REST read back identical (properties, facets, empty facets, vectors).
func TestGRPCImportStoresWhatRESTDoes(t *testing.T) {
	rest, g := restClient(t), grpcClient(t)
	ctx, s := testContext(t), testSettings(t, rest)
	objs := corpus(300, 7)
	for i := range objs {
		if i%3 == 0 {
			objs[i].Facets = []string{"type=md", "lang=en"}
		}
		objs[i].Lang = []string{"", "de"}[i%2]
	}
	alias := testAlias(t, rest)
	a, b := alias+"_e1_a", alias+"_e1_b"
	for _, x := range []struct {
		c    *Client
		name string
	}{{rest, a}, {g, b}} {
		if err := x.c.CreateCollection(ctx, x.name, s); err != nil {
			t.Fatal(err)
		}
		if err := x.c.Import(ctx, x.name, objs, s); err != nil {
			t.Fatalf("import into %s: %v", x.name, err)
		}
	}
	s.Read = "ALL"
	got := map[string][]Object{}
	for _, name := range []string{a, b} {
		o, err := rest.Fetch(ctx, name, chunkIDs(objs), s)
		if err != nil {
			t.Fatal(err)
		}
		sort.Slice(o, func(i, j int) bool { return o[i].ChunkID < o[j].ChunkID })
		got[name] = o
	}
	if len(got[b]) != len(objs) {
		t.Fatalf("grpc import: %d of %d objects read back", len(got[b]), len(objs))
	}
	for i := range got[a] {
		ra, rb := got[a][i], got[b][i]
		if len(ra.Facets) == 0 && len(rb.Facets) == 0 {
			ra.Facets, rb.Facets = nil, nil
		}
		if !reflect.DeepEqual(ra, rb) {
			t.Fatalf("object %d differs:\nrest %+v\ngrpc %+v", i, ra, rb)
		}
	}
}

// TestGRPCImportRefusedObjects: objects the server rejects fail the import
// with ErrRefused, as over REST (here: a vector of another length than the
// collection's first).
func TestGRPCImportRefusedObjects(t *testing.T) {
	g := grpcClient(t)
	ctx, s := testContext(t), testSettings(t, g)
	name := testAlias(t, g) + "_e1_a"
	if err := g.CreateCollection(ctx, name, s); err != nil {
		t.Fatal(err)
	}
	objs := corpus(20, 3)
	if err := g.Import(ctx, name, objs[:10], s); err != nil {
		t.Fatal(err)
	}
	bad := objs[10:]
	for i := range bad {
		bad[i].Vector = append(bad[i].Vector, 1, 2, 3)
	}
	err := g.Import(ctx, name, bad, s)
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("import of vectors of the wrong length: %v, want ErrRefused", err)
	}
}

// TestGRPCUnreachable: a gRPC address nobody listens on is ErrUnreachable.
func TestGRPCUnreachable(t *testing.T) {
	rest := testCluster(t)
	c, err := New(Config{URL: rest.base, GRPC: "127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s := testSettings(t, rest)
	s.Retries = 1
	name := testAlias(t, rest) + "_e1_a"
	if err := rest.CreateCollection(testContext(t), name, s); err != nil {
		t.Fatal(err)
	}
	if err := c.Import(testContext(t), name, corpus(5, 1), s); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("import over a dead gRPC address: %v, want ErrUnreachable", err)
	}
}

func TestGRPCAddrChecked(t *testing.T) {
	for _, a := range []string{"localhost", "http://127.0.0.1:50051", ":50051", "127.0.0.1:port"} {
		if _, err := New(Config{URL: "http://127.0.0.1:8080", GRPC: a}); err == nil {
			t.Errorf("grpc address %q accepted", a)
		}
	}
	if _, err := New(Config{URL: "http://127.0.0.1:8080", GRPC: "127.0.0.11:15060"}); err != nil {
		t.Error(err)
	}
}
