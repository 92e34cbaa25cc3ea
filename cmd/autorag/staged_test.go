package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// stagedEnv chooses a real transformer model (installed by `make models`):
// slow enough that a refresh stages it.
var stagedEnv = []string{"AUTORAG_EMBEDDER=transformer", "AUTORAG_MODEL=all-minilm-l6-v2-q"}

// stagedTree writes files of generated prose (distinct chunks, so that
// every one is embedded) and returns the root.
func stagedTree(t *testing.T, files int) string {
	t.Helper()
	root := t.TempDir()
	words := strings.Fields("river stone lantern harbor copper meadow signal engine garden thunder " +
		"window ledger compass orchard bridge candle falcon granite velvet monsoon quarry saddle " +
		"beacon timber glacier mosaic parcel rubric summit tunnel violet whistle anchor basalt")
	rng := rand.New(rand.NewPCG(35, uint64(files)))
	for f := range files {
		var b strings.Builder
		fmt.Fprintf(&b, "# Note %d\n\n", f)
		for p := range 4 {
			fmt.Fprintf(&b, "## Part %d\n\n", p)
			for range 90 {
				b.WriteString(words[rng.IntN(len(words))] + " ")
			}
			b.WriteString("\n\n")
		}
		writeFile(t, root, fmt.Sprintf("notes/n%03d.md", f), b.String())
	}
	writeFile(t, root, "pasta.md", "# Dinner\nBoil the spaghetti in salted water for nine minutes.\n")
	return root
}

// statusUpgrade is status --json's upgrade object (nil when none is due).
func statusUpgrade(t *testing.T, root string, env []string) map[string]any {
	t.Helper()
	r := cli(t, env, "--root", root, "status", "--json")
	if r.code != 0 {
		t.Fatalf("status: exit %d\n%s", r.code, r.stderr)
	}
	up, _ := r.json(t)["upgrade"].(map[string]any)
	return up
}

// startCLI starts autorag in the background; wait returns its result.
func startCLI(t *testing.T, env []string, args ...string) func() result {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(cleanEnv(), "AUTORAG_TEST_MAIN=1"), env...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return func() result {
		err := cmd.Wait()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return result{stdout: out.String(), stderr: errb.String(), code: code}
	}
}

// TestStagedRefresh: with a transformer chosen, a foreground refresh
// commits a first generation (built-in vectors) that answers at once; a
// bounded query loop during the upgrade has no error and every answer
// names the embedder that served it; a file written during the upgrade is
// searchable after it; the refresh returns once the upgraded generation is
// committed, and then no upgrade is due.
func TestStagedRefresh(t *testing.T) {
	root := stagedTree(t, 30)
	slow := append([]string{"AUTORAG_FAILPOINT=upgrade-group:delay=400ms"}, stagedEnv...)
	wait := startCLI(t, slow, "--root", root, "refresh", "--json")
	sidecar := filepath.Join(root, ".autorag", "fingerprint.json")
	deadline := time.Now().Add(waitLimit)
	for _, err := os.Stat(sidecar); err != nil; _, err = os.Stat(sidecar) {
		if time.Now().After(deadline) {
			t.Fatalf("no first generation within %s", waitLimit)
		}
		time.Sleep(20 * time.Millisecond)
	}
	first := cli(t, stagedEnv, "--root", root, "query", "--json", "--explain", "spaghetti")
	if first.code != 0 {
		t.Fatalf("query of the first generation: exit %d\n%s", first.code, first.stderr)
	}
	m := first.json(t)
	if !strings.HasPrefix(m["embedder"].(string), "local/") || m["upgrade"] == nil || !strings.Contains(m["explain"].(string), "embedding: ") {
		t.Fatalf("first generation's answer: embedder %v, upgrade %v, explain %q; want the built-in embedder and the upgrade's progress", m["embedder"], m["upgrade"], m["explain"])
	}
	writeFile(t, root, "heron.md", "# Birds\nThe grey heron waits by the zanzibarite pond.\n")
	served := map[string]int{}
	for i := range 12 {
		r := cli(t, stagedEnv, "--root", root, "query", "--json", "--no-cache", fmt.Sprintf("lantern harbor %d", i))
		if r.code != 0 {
			t.Fatalf("query %d during the upgrade: exit %d\n%s", i, r.code, r.stderr)
		}
		served[strings.SplitN(r.json(t)["embedder"].(string), "/", 2)[0]]++
	}
	t.Logf("answers during the upgrade by embedder: %v", served)
	res := wait()
	if res.code != 0 {
		t.Fatalf("refresh: exit %d\n%s", res.code, res.stderr)
	}
	env := res.json(t)
	if !strings.HasPrefix(env["embedder"].(string), "transformer/all-minilm-l6-v2-q") || env["staged"] == nil || env["upgrade"] != nil {
		t.Fatalf("refresh envelope: embedder %v, staged %v, upgrade %v; want the transformer committed", env["embedder"], env["staged"], env["upgrade"])
	}
	if num(env, "chunks_embedded") < num(env, "chunks")-1 {
		t.Fatalf("refresh embedded %d of %d chunks", num(env, "chunks_embedded"), num(env, "chunks"))
	}
	r := cli(t, stagedEnv, "--root", root, "query", "--json", "zanzibarite")
	if r.code != 0 || !strings.Contains(r.stdout, `"path":"heron.md"`) {
		t.Fatalf("the file written during the upgrade: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if up := statusUpgrade(t, root, nil); up != nil {
		t.Fatalf("status after the upgrade still shows %v", up)
	}
	if st := mustOK(t, "--root", root, "status").stdout; !strings.Contains(st, "sources:     unchanged") {
		t.Fatalf("status after the upgrade:\n%s", st)
	}
}

// TestStagedUpgradeSurvivesSIGKILL: refresh --no-wait returns after the
// first commit with the upgrade due; an upgrade killed (SIGKILL) after its
// first flushed group keeps every vector it finished: status counts them
// from the embedding cache, and the resumed upgrade embeds exactly the
// rest.
func TestStagedUpgradeSurvivesSIGKILL(t *testing.T) {
	root := stagedTree(t, 30)
	r := cli(t, stagedEnv, "--root", root, "refresh", "--no-wait", "--json")
	if r.code != 0 {
		t.Fatalf("refresh --no-wait: exit %d\n%s", r.code, r.stderr)
	}
	env := r.json(t)
	if !strings.HasPrefix(env["embedder"].(string), "local/") || env["upgrade"] == nil {
		t.Fatalf("refresh --no-wait: embedder %v, upgrade %v; want the built-in embedder and the upgrade due", env["embedder"], env["upgrade"])
	}
	killed := cli(t, []string{"AUTORAG_FAILPOINT=upgrade-group:kill"}, "--root", root, "upgrade")
	if killed.code != -1 {
		t.Fatalf("upgrade with the kill failpoint: exit %d, want killed\n%s", killed.code, killed.stderr)
	}
	up := statusUpgrade(t, root, nil)
	done, total := num(up, "done"), num(up, "total")
	if done < 64 || total <= done {
		t.Fatalf("after SIGKILL: %d of %d chunks in the cache, want the first group of 64 and more to do", done, total)
	}
	r = cli(t, nil, "--root", root, "upgrade", "--json")
	if r.code != 0 {
		t.Fatalf("resumed upgrade: exit %d\n%s", r.code, r.stderr)
	}
	env = r.json(t)
	if got := num(env, "chunks_embedded"); got != total-done {
		t.Fatalf("resumed upgrade embedded %d chunks, want the %d the cache lacked (%d of %d were kept)", got, total-done, done, total)
	}
	if !strings.HasPrefix(env["embedder"].(string), "transformer/") {
		t.Fatalf("after the upgrade the index records %v", env["embedder"])
	}
	r = cli(t, nil, "--root", root, "query", "--json", "--mode", "vector", "-k", "1", "how do I cook noodles")
	if r.code != 0 || !strings.Contains(r.stdout, `"path":"pasta.md"`) {
		t.Fatalf("vector query after the upgrade, with no setting: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = cli(t, nil, "--root", root, "upgrade", "--json")
	if r.code != 0 || r.json(t)["outcome"] != "unchanged" {
		t.Fatalf("upgrade with none due: exit %d\n%s", r.code, r.stdout)
	}
}

// TestWatchResumesUpgrade: a watch runs the upgrade refresh --no-wait left
// in the background and keeps answering; stopped mid-upgrade and started
// again, it resumes from the vectors kept and commits the upgrade.
func TestWatchResumesUpgrade(t *testing.T) {
	root := stagedTree(t, 30)
	if r := cli(t, stagedEnv, "--root", root, "refresh", "--no-wait"); r.code != 0 {
		t.Fatalf("refresh --no-wait: exit %d\n%s", r.code, r.stderr)
	}
	w := startWatch(t, root, []string{"AUTORAG_FAILPOINT=upgrade-group:delay=1s"}, "--debounce", "100ms")
	w.waitTick("the start tick", func(m map[string]any) bool { return trigger(m) == "start" })
	deadline := time.Now().Add(waitLimit)
	for up := statusUpgrade(t, root, nil); up == nil || num(up, "done") < 64; up = statusUpgrade(t, root, nil) {
		if up == nil || time.Now().After(deadline) {
			t.Fatalf("the watch's upgrade did not advance: %v\nstderr:\n%s", up, w.stderrText())
		}
		if r := cli(t, nil, "--root", root, "query", "--json", "spaghetti"); r.code != 0 {
			t.Fatalf("query during the watch's upgrade: exit %d\n%s", r.code, r.stderr)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if code := w.stop(); code != 0 {
		t.Fatalf("watch exit %d; stderr:\n%s", code, w.stderrText())
	}
	before := statusUpgrade(t, root, nil)
	if before == nil {
		t.Fatal("the upgrade finished before the watch stopped; the delay failpoint should hold it")
	}
	w = startWatch(t, root, nil, "--debounce", "100ms")
	deadline = time.Now().Add(waitLimit)
	for statusUpgrade(t, root, nil) != nil {
		if time.Now().After(deadline) {
			t.Fatalf("the restarted watch did not finish the upgrade (%v before); stderr:\n%s", before, w.stderrText())
		}
		time.Sleep(200 * time.Millisecond)
	}
	if !strings.Contains(w.stderrText(), "embedding in the background") {
		t.Fatalf("the restarted watch did not say it resumed; stderr:\n%s", w.stderrText())
	}
	r := cli(t, nil, "--root", root, "query", "--json", "spaghetti")
	if r.code != 0 || !strings.HasPrefix(r.json(t)["embedder"].(string), "transformer/") {
		t.Fatalf("after the watch's upgrade: exit %d\n%s", r.code, r.stdout)
	}
	if code := w.stop(); code != 0 {
		t.Fatalf("watch exit %d; stderr:\n%s", code, w.stderrText())
	}
}
