package engine

import (
	"slices"
	"testing"

	"github.com/autorag/autorag/engine/rank"
)

// TestContractFileFoundByName: in bm25 mode a file whose text never says
// the query's words is found by the words of its path (the path field),
// on both backends; with the path field off it is not.
func TestContractFileFoundByName(t *testing.T) {
	forBackends(t, func(t *testing.T, h *contractRoot) {
		h.writeCorpus()
		h.write("lib/colors.bash", "RED='\\033[31m'\nGREEN='\\033[32m'\nRESET='\\033[0m'\n")
		h.refresh(RefreshOptions{})
		if got := h.query("terminal colors", ModeBM25); len(got) == 0 || got[0] != "lib/colors.bash" {
			t.Errorf("terminal colors, path weight auto: %v", got)
		}
		h.e.Settings.PathWeight = rank.PathWeightOff
		if got := h.query("terminal colors", ModeBM25); slices.Contains(got, "lib/colors.bash") {
			t.Errorf("terminal colors, path field off: %v", got)
		}
	})
}
