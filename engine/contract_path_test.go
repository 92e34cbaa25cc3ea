package engine

import (
	"slices"
	"testing"
)

// TestContractFileFoundByName: in bm25 mode a file whose text never says
// the query's words is found by the words of its path (the path field),
// on both backends; with the path weight 0 it is not.
func TestContractFileFoundByName(t *testing.T) {
	forBackends(t, func(t *testing.T, h *contractRoot) {
		h.writeCorpus()
		h.write("lib/colors.bash", "RED='\\033[31m'\nGREEN='\\033[32m'\nRESET='\\033[0m'\n")
		h.refresh(RefreshOptions{})
		if got := h.query("terminal colors", ModeBM25); len(got) == 0 || got[0] != "lib/colors.bash" {
			t.Errorf("terminal colors, path weight auto: %v", got)
		}
		h.e.Settings.PathWeight = 0
		if got := h.query("terminal colors", ModeBM25); slices.Contains(got, "lib/colors.bash") {
			t.Errorf("terminal colors, path weight 0: %v", got)
		}
	})
}
