package engine

import (
	"strconv"
	"strings"
	"testing"

	"github.com/autorag/autorag/fingerprint"
)

// TestQueryOnIndexOfAnotherVersion: a remote embedder's identity carries
// IndexSemanticsVersion too (embedIdentity), so an index built by another
// version of autorag with the same provider and model differs from the
// configured identity only there. The query says to refresh, not to
// configure another embedder.
func TestQueryOnIndexOfAnotherVersion(t *testing.T) {
	srv := newEmbedServer(t, 8)
	e := newHybridEngine(t, map[string]string{"a.md": "# Heron\n\nThe heron fishes.\n"}, newRemoteEmbedder(t, srv, nil))
	mustRefresh(t, e)
	sc, err := fingerprint.ReadSidecar(e.Layout.SidecarPath())
	if err != nil {
		t.Fatal(err)
	}
	cur, old := "+index"+strconv.Itoa(IndexSemanticsVersion), "+index"+strconv.Itoa(IndexSemanticsVersion-1)
	if !strings.Contains(sc.Settings["embedder"], cur) {
		t.Fatalf("recorded embedder %q lacks %s", sc.Settings["embedder"], cur)
	}
	sc.Settings["embedder"] = strings.Replace(sc.Settings["embedder"], cur, old, 1)
	sc.SemanticsVersion = IndexSemanticsVersion - 1
	if err := fingerprint.WriteSidecar(e.Layout.SidecarPath(), sc); err != nil {
		t.Fatal(err)
	}
	_, err = e.Query(t.Context(), QueryOptions{Text: "heron", Mode: ModeHybrid})
	if err == nil || !strings.Contains(err.Error(), "another version of autorag") || strings.Contains(err.Error(), "configure the embedder") {
		t.Fatalf("hybrid query on an index of semantics %d: %v; want a refresh hint for another version", IndexSemanticsVersion-1, err)
	}
}
