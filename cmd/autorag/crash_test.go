package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/fingerprint"
)

// TestKillDuringRefresh kills a refresh with SIGKILL at each stage. After
// every crash a query serves the old or the new corpus, never an error;
// the next refresh converges to the new corpus and leaves no garbage.
// bench/reliability kills at every failpoint (TestCrashMatrixKill).
func TestKillDuringRefresh(t *testing.T) {
	for _, point := range []string{"after-mirror", "mid-generation", "before-sidecar", "after-sidecar"} {
		t.Run(point, func(t *testing.T) {
			root := copyCorpus(t)
			refreshJSON(t, root)
			oldAnswers := answers(t, root)
			writeFile(t, root, "notes/crash.md", "# Crash\n\nA quokka keeps the lighthouse configuration.\n")
			removeFirstMarkdown(t, root)
			want := answers(t, refreshed(t, copyTree(t, root)))

			r := cli(t, []string{"AUTORAG_FAILPOINT=" + point}, "--root", root, "refresh", "--json")
			if r.code != -1 {
				t.Fatalf("refresh with failpoint %s: exit %d, want killed\n%s", point, r.code, r.stderr)
			}
			got := answers(t, root)
			if !cmp.Equal(got, oldAnswers) && !cmp.Equal(got, want) {
				t.Fatalf("after kill at %s the query serves neither the old nor the new corpus:\n%s", point, cmp.Diff(want, got))
			}
			refreshJSON(t, root)
			if diff := cmp.Diff(want, answers(t, root)); diff != "" {
				t.Fatalf("refresh after kill at %s did not converge:\n%s", point, diff)
			}
			gens, _ := os.ReadDir(filepath.Join(root, ".autorag", "index"))
			if len(gens) != 1 {
				t.Errorf("after kill at %s and a refresh, %d generation dirs remain, want 1", point, len(gens))
			}
			if v := cli(t, nil, "--root", root, "index", "verify", "--json"); v.code != 0 {
				t.Errorf("index verify after recovery: exit %d %s", v.code, v.stdout)
			}
			assertNoTempFiles(t, root)
		})
	}
}

func refreshed(t *testing.T, root string) string {
	t.Helper()
	refreshJSON(t, root)
	return root
}

// assertNoTempFiles fails when a temporary file is left under .autorag.
func assertNoTempFiles(t *testing.T, root string) {
	t.Helper()
	filepath.WalkDir(filepath.Join(root, ".autorag"), func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), fingerprint.TempPrefix) {
			t.Errorf("temp file left behind: %s", p)
		}
		return nil
	})
}
