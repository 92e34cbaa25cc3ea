package engine

import (
	"slices"
	"testing"
)

// langCorpus has German and English files where the two analyses of a
// query differ: German stems "Kinder" to "kind", which is an English word
// too, and English keeps "kinder".
var langCorpus = map[string]string{
	"de/kinder.md": "# Im Garten\n\nDie Kinder spielen jeden Nachmittag im Garten hinter dem alten Haus, und ihre Eltern sitzen auf der Bank und lesen die Zeitung.\n",
	"de/haus.md":   "# Das Haus\n\nDas alte Haus am Fluss hat ein rotes Dach, und im Winter brennt im Ofen ein warmes Feuer für die ganze Familie.\n",
	"en/kind.md":   "# Kindness\n\nBe kind to the people you meet: a kind word costs nothing, and a kind deed is remembered for a long time.\n",
	"en/play.md":   "# Playtime\n\nThe children play in the garden every afternoon while their parents read the newspaper on the bench.\n",
}

// TestContractQueryLanguageScoping: each language's analysis of a query
// scores only in that language's chunks, on both backends: the German
// query "Kinder" finds the German file and not the English one that says
// "kind", which its German analysis produced; a term both analyses
// produce finds both languages' chunks. The sets are compared, not the
// order: Weaviate's idf is per shard, and on four files the shards differ.
func TestContractQueryLanguageScoping(t *testing.T) {
	cases := []struct {
		query string
		want  []string
	}{
		{"Kinder", []string{"de/kinder.md"}},
		{"spielen die Kinder im Garten", []string{"de/kinder.md"}},
		{"kind", []string{"de/kinder.md", "en/kind.md"}},
		{"children play in the garden", []string{"en/play.md"}},
		{"Haus", []string{"de/haus.md", "de/kinder.md"}},
	}
	answers := map[string][][]string{}
	forBackends(t, func(t *testing.T, h *contractRoot) {
		for rel, content := range langCorpus {
			h.write(rel, content)
		}
		h.refresh(RefreshOptions{})
		for _, c := range cases {
			got := sorted(h.query(c.query, ModeBM25))
			if !slices.Equal(got, c.want) {
				t.Errorf("bm25 %q: %v, want %v", c.query, got, c.want)
			}
			answers[h.e.Settings.Backend.name()] = append(answers[h.e.Settings.Backend.name()], got)
		}
		// In hybrid mode the lexical list is the scoped one too: the German
		// file comes first for the German query.
		if got := h.query("Kinder spielen", ModeHybrid); len(got) == 0 || got[0] != "de/kinder.md" {
			t.Errorf("hybrid %q: %v, want de/kinder.md first", "Kinder spielen", got)
		}
	})
	if l, w := answers[BackendLocal], answers[BackendWeaviate]; l != nil && w != nil && !slices.EqualFunc(l, w, slices.Equal) {
		t.Errorf("local %v, weaviate %v", l, w)
	}
}
