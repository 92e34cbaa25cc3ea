package querycache

import (
	"testing"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/envelope"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/internal/indextest"
)

var files = map[string]string{
	"a.md": "# Retry\n\nRetry with exponential backoff and jitter.\n",
	"b.md": "# Boats\n\nA boat on the river.\n",
}

// TestKeyHasQuerySemantics: a binary whose query-time code differs
// (another engine.QuerySemantics) computes another key for the same
// question on the same generation.
func TestKeyHasQuerySemantics(t *testing.T) {
	e := indextest.Files(t, t.TempDir(), files)
	sc, err := fingerprint.ReadSidecar(e.Layout.SidecarPath())
	if err != nil {
		t.Fatal(err)
	}
	o := engine.QueryOptions{Text: "retry with exponential backoff", Mode: engine.ModeBM25}
	this, ok := AnswerKey(sc, e, o)
	if !ok {
		t.Fatal("options do not resolve")
	}
	if again, _ := AnswerKey(sc, e, o); again != this {
		t.Fatal("the key is not stable")
	}
	defer func(s string) { Semantics = s }(Semantics)
	Semantics = "q-another-query-path"
	if other, _ := AnswerKey(sc, e, o); other == this {
		t.Error("another query-semantics digest gives the same key")
	}
}

// TestLookupKeep: a miss says which sidecar to answer from, Keep stores
// the answer of that generation only, and the next Lookup returns it.
func TestLookupKeep(t *testing.T) {
	e := indextest.Files(t, t.TempDir(), files)
	c := Open(e, DefaultCapBytes)
	o := engine.QueryOptions{Text: "retry", K: 10, PerFile: 1}
	env, p := c.Lookup(o)
	if env != nil || p.Sidecar == nil {
		t.Fatalf("first lookup: %+v, sidecar %v", env, p.Sidecar)
	}
	res, err := e.QueryAt(t.Context(), p.Sidecar, o)
	if err != nil {
		t.Fatal(err)
	}
	stale := *envelope.NewQuery("retry", 10, res)
	stale.Generation = "another"
	c.Keep(p, &stale)
	if env, _ := c.Lookup(o); env != nil {
		t.Fatalf("an answer of another generation was kept: %+v", env)
	}
	c.Keep(p, envelope.NewQuery("retry", 10, res))
	env, _ = c.Lookup(o)
	if env == nil || env.Generation != p.Sidecar.Generation || len(env.Results) == 0 || env.Results[0].Path != "a.md" {
		t.Fatalf("kept answer: %+v", env)
	}
	if env, p := c.Lookup(engine.QueryOptions{Text: "retry", K: 10, PerFile: 1, Mode: "fuzzy"}); env != nil || p.Sidecar != nil {
		t.Errorf("options that do not resolve: %+v, %v", env, p.Sidecar)
	}
}
