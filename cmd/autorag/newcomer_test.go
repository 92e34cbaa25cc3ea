package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/watch"
)

// Tests of what a new user met on real trees (issue 24), through the CLI.

// k follows one rule everywhere (agentapi.ResolveK): 1 to 1000.
func TestQueryKOneRule(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "a.md", "# Heron\n\nThe heron fishes.\n")
	mustOK(t, "--root", root, "refresh", "-q")
	for _, k := range []string{"0", "-1", "1001"} {
		r := cli(t, nil, "--root", root, "query", "-k", k, "heron")
		if r.code != 2 || !strings.Contains(r.stderr, "k must be between 1 and 1000") {
			t.Errorf("-k %s: exit %d, stderr %q; want 2 and the rule", k, r.code, r.stderr)
		}
	}
	mustOK(t, "--root", root, "query", "-k", "1000", "heron")
}

// interruptRefresh interrupts a refresh of root at the first embedding
// batch and returns its exit code and stderr.
func interruptRefresh(t *testing.T, root string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "--root", root, "refresh")
	cmd.Env = append(cleanEnv(), "AUTORAG_TEST_MAIN=1", "AUTORAG_FAILPOINT=during-embedding:delay=3s")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(stderr)
	line, _ := r.ReadString('\n')
	if !strings.Contains(line, "delaying at during-embedding") {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("refresh did not reach the embedding: %q", line)
	}
	cmd.Process.Signal(syscall.SIGINT)
	rest, _ := io.ReadAll(r)
	cmd.Wait()
	return cmd.ProcessState.ExitCode(), string(rest)
}

// Ctrl-C on a first refresh prints one clean message, and the hint says
// there is no index yet; on a later refresh it says the old one serves.
func TestInterruptSaysWhatIsServed(t *testing.T) {
	root := t.TempDir()
	for i := range 40 {
		writeFile(t, root, fmt.Sprintf("doc%d.md", i), fmt.Sprintf("# Doc %d\n\nText number %d about herons.\n", i, i))
	}
	code, stderr := interruptRefresh(t, root)
	if code != exitInterrupted || strings.Count(stderr, "\n") != 2 || strings.Contains(stderr, "context canceled") ||
		!strings.Contains(stderr, "autorag: interrupted") || !strings.Contains(stderr, "no index yet") || strings.Contains(stderr, "still served") {
		t.Errorf("first refresh interrupted: exit %d, stderr:\n%s", code, stderr)
	}
	mustOK(t, "--root", root, "refresh", "-q")
	writeFile(t, root, "new.md", "# New\n\nA new page about kingfishers.\n")
	code, stderr = interruptRefresh(t, root)
	if code != exitInterrupted || !strings.Contains(stderr, "is still served") {
		t.Errorf("later refresh interrupted: exit %d, stderr:\n%s", code, stderr)
	}
}

// The first refresh of a root says where it created the index, once.
func TestFirstRefreshNamesTheNewIndex(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "a.md", "# A\n\ntext\n")
	want := "\n  new index at " + filepath.Join(root, ".autorag") + "\n"
	if r := mustOK(t, "--root", root, "refresh"); !strings.HasSuffix(r.stdout, want) {
		t.Errorf("first refresh: stdout %q, want it to end with %q", r.stdout, want)
	}
	if r := mustOK(t, "--root", root, "refresh"); strings.Contains(r.stdout, "new index") {
		t.Errorf("second refresh: stdout %q names a new index", r.stdout)
	}
}

// max_file_size shows its real default and takes sizes with units.
func TestMaxFileSizeIsShownAndTakesUnits(t *testing.T) {
	root := t.TempDir()
	if out := mustOK(t, "--root", root, "config").stdout; !strings.Contains(out, "16MiB") {
		t.Errorf("config does not show max_file_size as 16MiB:\n%s", out)
	}
	writeFile(t, root, "big.md", "# Big\n\n"+strings.Repeat("heron ", 400)+"\n")
	r := cli(t, []string{"AUTORAG_MAX_FILE_SIZE=1KiB"}, "--root", root, "refresh", "--json")
	if r.code != 0 || !strings.Contains(r.stdout, `"big.md"`) || !strings.Contains(r.stdout, "too large") {
		t.Errorf("1KiB limit: exit %d, %s", r.code, r.stdout)
	}
	if r := cli(t, []string{"AUTORAG_MAX_FILE_SIZE=12x"}, "--root", root, "config"); r.code != 2 || !strings.Contains(r.stderr, "want a size") {
		t.Errorf("bad size: exit %d, %q", r.code, r.stderr)
	}
	for in, want := range map[string]int64{"16777216": 16 << 20, "16MiB": 16 << 20, "16 mib": 16 << 20, "2KB": 2000, "1GiB": 1 << 30} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
}

// An unknown flag is one line with a did-you-mean, not the whole usage.
func TestUnknownFlagSuggests(t *testing.T) {
	root := t.TempDir()
	r := cli(t, nil, "--root", root, "query", "--fitler", "a=b", "heron")
	if r.code != 2 || strings.Contains(r.stderr, "Usage:") || !strings.Contains(r.stderr, "did you mean --filter?") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("exit %d, stderr %q; want one line suggesting --filter", r.code, r.stderr)
	}
	r = cli(t, nil, "--root", root, "qurey", "heron")
	if r.code != 2 || strings.Contains(r.stderr, "Usage:") || !strings.Contains(r.stderr, "did you mean query?") {
		t.Errorf("unknown command: exit %d, stderr %q", r.code, r.stderr)
	}
	for _, tt := range []struct {
		a, b string
		d    int
	}{{"fitler", "filter", 1}, {"moed", "mode", 1}, {"path", "path", 0}, {"k", "json", 4}} {
		if d := editDistance(tt.a, tt.b); d != tt.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, d, tt.d)
		}
	}
}

// A watch tick in --json names the paths it refreshed.
func TestWatchTickNamesItsPaths(t *testing.T) {
	l := toLine(watch.Tick{N: 3, Trigger: watch.TriggerEvent, Outcome: "updated", Paths: []string{"docs/a.md", "b.pdf"}})
	b, _ := json.Marshal(l)
	if !strings.Contains(string(b), `"paths":2,"changed":["docs/a.md","b.pdf"]`) {
		t.Errorf("tick line %s does not name its paths", b)
	}
}

// A PDF copy in also_in is named by its page, and a PDF result's page is
// not printed again under the heading that already says it.
func TestAlsoInPDFPageAndNoRepeatedPage(t *testing.T) {
	r := engine.Result{Rank: 1, Path: "pdf/a.pdf", Page: 37, Text: "x", Score: 1,
		AlsoIn: []engine.Location{{Path: "pdf/testPDF.pdf", Lines: [2]int{1, 16}, Page: 2}, {Path: "b.md", Lines: [2]int{3, 4}}}}
	got := extras(r)
	if len(got) != 1 || got[0].value != "pdf/testPDF.pdf#page=2, b.md:3-4" {
		t.Errorf("extras = %v, want also in with the PDF's page and no page line", got)
	}
}
