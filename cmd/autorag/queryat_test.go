package main

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/fingerprint"
)

// TestQueryAtFallsBackWhenTheGenerationIsGone: a query that missed the
// cache answers from the generation its sidecar read named; when another
// process has committed and collected that generation meanwhile, the
// answer is engine.Query's from the new one, not an error.
func TestQueryAtFallsBackWhenTheGenerationIsGone(t *testing.T) {
	ctx := t.Context()
	e, err := engine.New(copyCorpus(t), engine.DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Refresh(ctx, engine.RefreshOptions{Command: "test"}); err != nil {
		t.Fatal(err)
	}
	old, err := fingerprint.ReadSidecar(e.Layout.SidecarPath())
	if err != nil {
		t.Fatal(err)
	}
	qo := engine.QueryOptions{Text: "retry with exponential backoff"}
	if res, err := e.QueryAt(ctx, old, qo); err != nil || res.Generation != old.Generation {
		t.Fatalf("search on the committed generation %s: %v, err %v", old.Generation, res, err)
	}

	if _, err := e.Refresh(ctx, engine.RefreshOptions{Rebuild: true, Command: "test"}); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(e.Layout.GenDir(old.Generation)); err != nil {
		t.Fatal(err)
	}
	got, err := e.QueryAt(ctx, old, qo)
	if err != nil {
		t.Fatalf("search with the sidecar of collected generation %s: %v", old.Generation, err)
	}
	want, err := e.Query(ctx, qo)
	if err != nil {
		t.Fatal(err)
	}
	if got.Generation == old.Generation || got.Generation != want.Generation {
		t.Errorf("answer from generation %s, want the new %s", got.Generation, want.Generation)
	}
	if len(want.Results) == 0 {
		t.Fatal("the query finds nothing: the comparison below proves little")
	}
	if d := cmp.Diff(want.Results, got.Results); d != "" {
		t.Errorf("results differ from engine.Query's (-want +got):\n%s", d)
	}
}
