package weaviate

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// crashSettings make an update of crashChange take several batches.
func crashSettings(t testing.TB, c *Client) Settings {
	s := testSettings(t, c)
	s.BatchSize, s.Concurrency = 50, 1
	return s
}

func crashBase() []Object { return corpus(300, 11) }
func crashChange() Change { return edit(crashBase(), 100, "crash") }
func (s state) objects() []Object {
	objs := make([]Object, 0, len(s))
	for _, o := range s {
		objs = append(objs, o)
	}
	sort.Slice(objs, func(i, j int) bool { return objs[i].ChunkID < objs[j].ChunkID })
	return objs
}

// TestPairConvergesAfterKill9: a process updating the pair is killed with
// SIGKILL mid-import on the standby and right after the swap. Readers of the
// alias see exactly the last committed state, and the next update (by
// another process) repairs the pair so both collections hold the new state.
func TestPairConvergesAfterKill9(t *testing.T) {
	if stage := os.Getenv("WV_CRASH_STAGE"); stage != "" {
		crashChild(t, stage, os.Getenv("WV_CRASH_ALIAS"))
		return
	}
	c := testCluster(t)
	for _, tc := range []struct {
		stage     string
		committed state
	}{
		{"batch", stateOf(crashBase())},
		{"swapped", stateOf(crashBase()).apply(crashChange())},
	} {
		t.Run(tc.stage, func(t *testing.T) {
			ctx := testContext(t)
			s := crashSettings(t, c)
			p := NewPair(c, testAlias(t, c), s)
			if _, err := p.Build(ctx, "e1", crashBase()); err != nil {
				t.Fatal(err)
			}
			killChildAt(t, tc.stage, p.Alias())
			ids := universe(crashBase(), crashChange())
			// What readers see is the committed state, whole.
			if got := contents(t, c, p.Alias(), ids); strings.Join(got, "\n") != strings.Join(tc.committed.lines(), "\n") {
				t.Fatalf("alias after kill at %s: %d chunks, not the committed state (%d)", tc.stage, len(got), len(tc.committed))
			}
			next := edit(tc.committed.objects(), 5, "after")
			rep, err := p.Commit(ctx, next)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Repaired == 0 {
				t.Errorf("next update repaired nothing after a kill at %s", tc.stage)
			}
			checkPair(t, c, p, tc.committed.apply(next), universe(crashBase(), crashChange(), next))
		})
	}
}

// killChildAt runs the update of crashChange in a child process, kills it
// with SIGKILL when it reaches stage, and waits for it.
func killChildAt(t *testing.T, stage, alias string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestPairConvergesAfterKill9$", "-test.count=1")
	cmd.Env = append(os.Environ(), "WV_CRASH_STAGE="+stage, "WV_CRASH_ALIAS="+alias)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	reached := false
	for sc.Scan() {
		if sc.Text() == "stopped at "+stage {
			reached = true
			break
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	if !reached {
		t.Fatalf("child never reached stage %s", stage)
	}
}

// crashChild updates the pair and parks at the first stage named stage, so
// the parent can kill it there.
func crashChild(t *testing.T, stage, alias string) {
	c := testCluster(t)
	p := NewPair(c, alias, crashSettings(t, c))
	p.stage = func(name string) {
		if name == stage {
			fmt.Println("stopped at " + stage)
			select {}
		}
	}
	if _, err := p.Commit(testContext(t), crashChange()); err != nil {
		t.Fatal(err)
	}
	t.Fatal("update finished without reaching stage " + stage)
}
