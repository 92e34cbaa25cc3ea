package upgrade

import (
	"testing"

	"github.com/autorag/autorag/engine"
)

// BenchmarkUpgradeCount measures one pass of the upgrader over the
// committed mirror (cut every file, look every text up in the target's
// cache): what status counts and what an upgrade makes before it embeds.
func BenchmarkUpgradeCount(b *testing.B) {
	root := proseRoot(b, 200)
	s := engine.DefaultSettings()
	s.Embedder, s.EmbedderChosen = &recorder{}, true
	e, err := engine.New(root, s)
	if err != nil {
		b.Fatal(err)
	}
	if _, p, err := Refresh(b.Context(), e, engine.RefreshOptions{}); err != nil || !p.Staged() {
		b.Fatalf("first stage: staged %v, %v", p.Staged(), err)
	}
	w, err := open(b.Context(), e.Layout, e, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer w.close()
	var total int
	for b.Loop() {
		if _, total, err = w.count(b.Context()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(total), "chunks")
}
