package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/autorag/autorag/fingerprint"
)

// snapshot is what a user sees of an index: the answers to every probe
// query (rank, path, chunk, lines, exact score) and its fingerprint.
type snapshot struct {
	fingerprint string
	answers     []string
}

// observe queries root; an error means a query failed.
func (c *cli) observe(root string) (snapshot, error) {
	var s snapshot
	for _, mode := range []string{"bm25", "hybrid"} {
		for _, q := range probes[:min(len(probes), c.probeLimit())] {
			r := c.run(nil, "--root", root, "query", "--json", "--no-cache", "--mode", mode, "-k", "6", "--per-file", "1", q)
			m := r.obj()
			if r.code != 0 || m == nil {
				return s, fmt.Errorf("query %q: %s", q, r)
			}
			if s.fingerprint == "" {
				s.fingerprint, _ = m["fingerprint"].(string)
			}
			res, _ := m["results"].([]any)
			for _, x := range res {
				x, _ := x.(map[string]any)
				s.answers = append(s.answers, fmt.Sprintf("%s %s | %v %v#%v %v %.12g", mode, q, x["rank"], x["path"], x["chunk"], x["lines"], x["score"]))
			}
		}
	}
	return s, nil
}

func (s snapshot) equal(o snapshot) bool {
	return s.fingerprint == o.fingerprint && slices.Equal(s.answers, o.answers)
}

// reference indexes a copy of root's sources from scratch and observes it.
func (c *cli) reference(root, scratch string) (snapshot, error) {
	ref := filepath.Join(scratch, "ref")
	if err := os.RemoveAll(ref); err != nil {
		return snapshot{}, err
	}
	if err := copySources(root, ref); err != nil {
		return snapshot{}, err
	}
	defer os.RemoveAll(ref)
	if r := c.run(nil, "--root", ref, "refresh", "-q"); r.code != 0 {
		return snapshot{}, fmt.Errorf("reference refresh: %s", r)
	}
	return c.observe(ref)
}

// checkAfter checks root after a refresh that may have crashed or failed
// (checkServing), then that a refresh converges (checkConverge).
func (c *cli) checkAfter(root string, old, want snapshot) error {
	if _, err := c.checkServing(root, old, want); err != nil {
		return err
	}
	return c.checkConverge(root, want)
}

// checkServing checks that root serves exactly the old or the new corpus,
// that status tells which and whether sources changed, and that index
// verify passes. It returns what root serves.
func (c *cli) checkServing(root string, old, want snapshot) (snapshot, error) {
	got, err := c.observe(root)
	if err != nil {
		return got, err
	}
	if !got.equal(old) && !got.equal(want) {
		return got, fmt.Errorf("serves neither the old nor the new corpus (fingerprint %.12s; old %.12s, new %.12s)", got.fingerprint, old.fingerprint, want.fingerprint)
	}
	if err := c.checkStatus(root, got.fingerprint, want.fingerprint); err != nil {
		return got, err
	}
	if r := c.run(nil, "--root", root, "index", "verify", "--json"); r.code != 0 {
		return got, fmt.Errorf("index verify: %s", r)
	}
	return got, nil
}

// checkConverge refreshes root and checks that it then answers exactly
// like want, that status says so, and that no garbage is left.
func (c *cli) checkConverge(root string, want snapshot) error {
	if r := c.run(nil, "--root", root, "refresh", "--json"); r.code != 0 {
		return fmt.Errorf("refresh after the fault: %s", r)
	}
	got, err := c.observe(root)
	if err != nil {
		return err
	}
	if !got.equal(want) {
		return fmt.Errorf("the next refresh did not converge to the new corpus")
	}
	if err := c.checkStatus(root, want.fingerprint, want.fingerprint); err != nil {
		return fmt.Errorf("after converging: %w", err)
	}
	return checkNoGarbage(root)
}

// checkStatus checks that status reports the committed fingerprint and
// whether the sources changed since.
func (c *cli) checkStatus(root, committed, current string) error {
	r := c.run(nil, "--root", root, "status", "--json")
	m := r.obj()
	if r.code != 0 || m == nil {
		return fmt.Errorf("status: %s", r)
	}
	changed, _ := m["sources_changed"].(bool)
	if m["fingerprint"] != committed || m["current_fingerprint"] != current || changed != (committed != current) {
		return fmt.Errorf("status does not tell the truth: fingerprint %v (want %.12s), current %v (want %.12s), sources_changed %v",
			m["fingerprint"], committed, m["current_fingerprint"], current, changed)
	}
	return nil
}

// checkNoGarbage fails when .autorag holds a generation the sidecar does
// not name or a temporary file.
func checkNoGarbage(root string) error {
	dir := filepath.Join(root, ".autorag")
	b, err := os.ReadFile(filepath.Join(dir, "fingerprint.json"))
	if err != nil {
		return err
	}
	var sc struct{ Generation string }
	if err := json.Unmarshal(b, &sc); err != nil {
		return err
	}
	ents, err := os.ReadDir(filepath.Join(dir, "index"))
	if err != nil {
		return err
	}
	if len(ents) != 1 || ents[0].Name() != sc.Generation {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		return fmt.Errorf("garbage: index/ holds %v, the sidecar names %s", names, sc.Generation)
	}
	var temps []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), fingerprint.TempPrefix) {
			temps = append(temps, p)
		}
		return nil
	})
	if len(temps) > 0 {
		return fmt.Errorf("garbage: temporary files left: %v", temps)
	}
	return nil
}
