package engine

import (
	"context"
	"strconv"
	"testing"

	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/fingerprint"
)

// TestSemanticsBumpRebuilds: an index committed by a binary of another
// IndexSemanticsVersion, with a fingerprint that binary computed, is
// rebuilt by the next refresh, with nothing else changed.
func TestSemanticsBumpRebuilds(t *testing.T) {
	ctx := context.Background()
	e := newTestEngine(t, map[string]string{"a.md": "# A\n\nheron\n", "b.txt": "egret\n"})
	if _, err := e.Refresh(ctx, RefreshOptions{}); err != nil {
		t.Fatal(err)
	}
	if r, err := e.Refresh(ctx, RefreshOptions{}); err != nil || r.Outcome != OutcomeUnchanged {
		t.Fatalf("second refresh: %v %v, want unchanged", r, err)
	}
	sc, err := fingerprint.ReadSidecar(e.Layout.SidecarPath())
	if err != nil {
		t.Fatal(err)
	}
	other := IndexSemanticsVersion + 1 // as if written by the next version, or this one by the previous
	man := e.loadManifest(RefreshOptions{}, &RefreshResult{})
	files := make([]fingerprint.FileHash, len(man.Entries))
	for i, en := range man.Entries {
		files[i] = fingerprint.FileHash{Path: en.Path, TextHash: en.TextHash}
	}
	sc.SemanticsVersion = other
	sc.Fingerprint = fingerprint.Compute(fingerprint.Inputs{SemanticsVersion: other, Settings: sc.Settings, Files: files})
	if sc.Fingerprint == e.fingerprintOf(man) {
		t.Fatal("the fingerprint does not cover the semantics version")
	}
	if err := fingerprint.WriteSidecar(e.Layout.SidecarPath(), sc); err != nil {
		t.Fatal(err)
	}
	r, err := e.Refresh(ctx, RefreshOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome != OutcomeRebuilt || r.FilesIndexed != 2 {
		t.Fatalf("refresh after a semantics bump: outcome %s, %d files indexed; want rebuilt, 2", r.Outcome, r.FilesIndexed)
	}
	if got, _ := fingerprint.ReadSidecar(e.Layout.SidecarPath()); got.SemanticsVersion != IndexSemanticsVersion {
		t.Fatalf("committed semantics version %d, want %d", got.SemanticsVersion, IndexSemanticsVersion)
	}
}

type fixedEmbedder struct{ id embed.Identity }

func (f fixedEmbedder) Identity() embed.Identity { return f.id }
func (f fixedEmbedder) Embed(context.Context, []string) ([][]float32, error) {
	return nil, nil
}

// TestEmbedderIdentityHasSemanticsVersion: the identity the fingerprint
// and the embedding cache see carries IndexSemanticsVersion for every
// embedder: the built-in one's vectors are this module's code, and so is
// how the OpenAI one splits and averages a long text.
func TestEmbedderIdentityHasSemanticsVersion(t *testing.T) {
	local := Settings{Embedder: fixedEmbedder{embed.Identity{Provider: "local", Model: "glove-x", Dims: 100}}}
	want := "local/glove-x+index" + strconv.Itoa(IndexSemanticsVersion) + "/100"
	if got := local.embedIdentity().String(); got != want {
		t.Errorf("local identity %q, want %q", got, want)
	}
	if got := local.fingerprinted()["embedder"]; got != want {
		t.Errorf("fingerprinted embedder %q, want %q", got, want)
	}
	remote := Settings{Embedder: fixedEmbedder{embed.Identity{Provider: "openai", Model: "m", Dims: 8}}}
	if want := "openai/m+index" + strconv.Itoa(IndexSemanticsVersion) + "/8"; remote.embedIdentity().String() != want {
		t.Errorf("remote identity %q, want %q", remote.embedIdentity(), want)
	}
}
