package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
)

// compactFiles is the size of the compaction scenario's root: English
// files and one German one (a language of one chunk, sorting before
// English), enough for several segments.
const compactFiles = 600

// compactQueries are the scenario's questions, asked in bm25 mode.
var compactQueries = []string{"heron", "river stone light", "violet quartz lantern", "heron dusk", "garden window engine", "Kinder Wasser Garten"}

// idleCompaction is the property that compaction never changes answers:
// a root analyzed per language is churned (files edited and deleted, so
// that replaced chunks stay in its segments), its answers recorded, then
// `autorag watch --compact-idle` compacts it, and every answer must name
// the same chunks in the same order with the same positive scores. The
// languages' chunk counts came from bleve's dictionary, which after a
// merge counted one English chunk: negative scores, SciFact bm25 nDCG@10
// 0.7057 -> 0.0324.
func (h *harness) idleCompaction() outcome {
	o := outcome{Scenario: "watch × idle compaction of a churned per-language index: answers (chunks, order, scores) unchanged"}
	if err := h.compactTrial(&o); err != nil {
		o.fail("%v", err)
	}
	return o
}

func (h *harness) compactTrial(o *outcome) error {
	root, err := os.MkdirTemp(h.work, "compact-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(root)
	words := strings.Fields("heron river stone light garden window engine signal harbor copper meadow lantern violet quartz willow falcon")
	doc := func(i int, more string) string {
		var sb strings.Builder
		fmt.Fprintf(&sb, "# Note %d\n\n", i)
		for j := range 6 + i%9 {
			sb.WriteString(words[(i*3+j*j)%len(words)] + " ")
		}
		return sb.String() + "are seen here." + more + "\n"
	}
	files := map[string]string{"de.md": "# Der Fluss\n\nDie Kinder spielen jeden Nachmittag im Garten hinter dem alten Haus, und das Wasser des Flusses ist im Winter sehr kalt und klar.\n"}
	for i := range compactFiles {
		files[fmt.Sprintf("d%03d.md", i)] = doc(i, "")
	}
	if err := writeFiles(root, files); err != nil {
		return err
	}
	if r := h.cli.run(nil, "--root", root, "refresh"); r.code != 0 {
		return fmt.Errorf("refresh: %s", r)
	}
	churn := map[string]string{}
	for i := 0; i < compactFiles; i += 5 {
		name := fmt.Sprintf("d%03d.md", i)
		if i%2 == 0 {
			churn[name] = doc(i, " The heron came back at dusk.")
		} else if err := os.Remove(filepath.Join(root, name)); err != nil {
			return err
		}
	}
	if err := writeFiles(root, churn); err != nil {
		return err
	}
	// watch compacts after a quiet period that follows its own commit:
	// its start tick commits the churn, the answers are recorded in the
	// quiet period, then it compacts.
	w, lines, _, err := h.cli.startStreams(nil, "--root", root, "watch", "--json", "--reconcile", "0", "--compact-idle", "3s")
	if err != nil {
		return err
	}
	defer w.kill()
	if !waitLine(lines, `"trigger":"start","outcome":"updated"`) {
		return fmt.Errorf("watch did not commit the churn: %s", w.kill())
	}
	genBefore, before, err := h.bm25Answers(root)
	if err != nil {
		return fmt.Errorf("before compaction: %w", err)
	}
	if !waitLine(lines, `"outcome":"compacted"`) {
		return fmt.Errorf("watch did not compact within a minute: %s", w.kill())
	}
	w.kill()
	genAfter, after, err := h.bm25Answers(root)
	if err != nil {
		return fmt.Errorf("after compaction: %w", err)
	}
	if genBefore == genAfter {
		return fmt.Errorf("the answers before compaction came from generation %s, the compacted one", genAfter)
	}
	for i, q := range compactQueries {
		o.Trials++
		if !reflect.DeepEqual(before[i], after[i]) {
			o.fail("%q: before compaction %v, after %v", q, before[i], after[i])
		}
	}
	return nil
}

// hit is one result of a query: the chunk and its score.
type hit struct {
	Path  string  `json:"path"`
	Chunk int     `json:"chunk"`
	Score float64 `json:"score"`
}

// bm25Answers asks each of compactQueries in bm25 mode (no cache) and
// returns the generation that answered and the results; a score that is
// not positive is an error.
func (h *harness) bm25Answers(root string) (string, [][]hit, error) {
	var out [][]hit
	gen := ""
	for _, q := range compactQueries {
		r := h.cli.run(nil, "--root", root, "query", "--json", "--no-cache", "--mode", "bm25", "-k", "20", "--", q)
		var res struct {
			Generation string `json:"generation"`
			Results    []hit  `json:"results"`
		}
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &res) != nil || len(res.Results) == 0 {
			return "", nil, fmt.Errorf("query %q: %s", q, r)
		}
		if gen != "" && res.Generation != gen {
			return "", nil, fmt.Errorf("query %q: generation %s, the others %s", q, res.Generation, gen)
		}
		gen = res.Generation
		for _, x := range res.Results {
			if x.Score <= 0 {
				return "", nil, fmt.Errorf("query %q: %s#%d scores %v", q, x.Path, x.Chunk, x.Score)
			}
		}
		out = append(out, res.Results)
	}
	return gen, out, nil
}

// writeFiles writes files (path relative to root: content) under root.
func writeFiles(root string, files map[string]string) error {
	for rel, s := range files {
		if err := os.WriteFile(filepath.Join(root, rel), []byte(s), 0o644); err != nil {
			return err
		}
	}
	return nil
}
