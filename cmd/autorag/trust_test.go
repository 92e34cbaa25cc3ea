package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestVerifyWhileRefreshing is defect 4: index verify reads a consistent
// snapshot. Run against a loop of refreshes that commit and collect
// generations, every verify says ok.
func TestVerifyWhileRefreshing(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			writeFile(t, root, "notes/churn.md", fmt.Sprintf("# Churn %d\n\nthe refresh loop wrote version %d\n", i, i))
			if r := cli(t, nil, "--root", root, "refresh", "-q"); r.code != 0 && r.code != 1 {
				t.Errorf("refresh: exit %d %s", r.code, r.stderr)
			}
		}
	}()
	bad := 0
	const verifies = 15
	for range verifies {
		if r := cli(t, nil, "--root", root, "index", "verify", "--json"); r.code != 0 {
			bad++
			t.Logf("verify: exit %d %s %s", r.code, r.stdout, r.stderr)
		}
	}
	close(stop)
	wg.Wait()
	if bad > 0 {
		t.Fatalf("%d of %d verifies during refreshes failed on a healthy index", bad, verifies)
	}
}

// TestVerifyOutlivesItsSidecar is defect 4 made deterministic: a verify
// that read the sidecar and then waited while a refresh committed a new
// generation and collected the old one still says ok.
func TestVerifyOutlivesItsSidecar(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	verify := exec.Command(os.Args[0], "--root", root, "index", "verify", "--json")
	verify.Env = append(cleanEnv(), "AUTORAG_TEST_MAIN=1", "AUTORAG_FAILPOINT=verify-after-sidecar:delay=2s")
	var out bytes.Buffer
	verify.Stdout = &out
	stderr, _ := verify.StderrPipe()
	if err := verify.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(stderr).ReadString('\n')
	if !strings.Contains(line, "delaying at verify-after-sidecar") {
		verify.Process.Kill()
		t.Fatalf("verify did not reach the delay: %q", line)
	}
	writeFile(t, root, "notes/new.md", "# New\n\nwritten while verify waited\n")
	refreshJSON(t, root)
	err := verify.Wait()
	if err != nil {
		t.Fatalf("verify of a healthy index that changed under it: %v %s", err, out.String())
	}
}

// treeState maps every path under root to its size and mtime.
func treeState(t *testing.T, root string) map[string]string {
	t.Helper()
	m := map[string]string{}
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		fi, err := d.Info()
		if err == nil {
			m[p] = fmt.Sprintf("%v %d %d", fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
		}
		return nil
	})
	return m
}

// TestStatusWritesNothing is defect 5: status over changed sources writes
// nothing, neither in $TMPDIR nor in the root (.autorag included). $TMPDIR
// names a directory that does not exist, so any temporary file would fail
// the command.
func TestStatusWritesNothing(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	writeFile(t, root, "notes/changed.md", "# Changed\n\nstatus must parse this without storing it\n")
	tmp := filepath.Join(t.TempDir(), "absent")
	before := treeState(t, root)
	r := cli(t, []string{"TMPDIR=" + tmp}, "--root", root, "status", "--json")
	if r.code != 0 {
		t.Fatalf("status: exit %d %s", r.code, r.stderr)
	}
	if changed, _ := r.json(t)["sources_changed"].(bool); !changed {
		t.Errorf("status does not see the changed source: %s", r.stdout)
	}
	if _, err := os.Lstat(tmp); err == nil {
		t.Errorf("status created $TMPDIR")
	}
	if diff := cmp.Diff(before, treeState(t, root)); diff != "" {
		t.Errorf("status changed the root:\n%s", diff)
	}
}

// TestSymlinkSwappedInIsNotFollowed is defect 8: a file replaced by a link
// out of the root between the walk and the read is never followed.
func TestSymlinkSwappedInIsNotFollowed(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	outside := filepath.Join(t.TempDir(), "secret.md")
	if err := os.WriteFile(outside, []byte("# Secret\n\nthe zanzibarquux password lives outside the root\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(root, "notes", "victim.md")
	writeFile(t, root, "notes/victim.md", "# Victim\n\nan ordinary note\n")
	refresh := exec.Command(os.Args[0], "--root", root, "refresh", "--json")
	refresh.Env = append(cleanEnv(), "AUTORAG_TEST_MAIN=1", "AUTORAG_FAILPOINT=scan-after-walk:delay=1s")
	var out bytes.Buffer
	refresh.Stdout = &out
	stderr, _ := refresh.StderrPipe()
	if err := refresh.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(stderr).ReadString('\n')
	if !strings.Contains(line, "delaying at scan-after-walk") {
		refresh.Process.Kill()
		t.Fatalf("refresh did not reach the delay: %q", line)
	}
	if err := os.Remove(victim); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, victim); err != nil {
		t.Fatal(err)
	}
	if err := refresh.Wait(); err != nil {
		t.Fatalf("refresh: %v %s", err, out.String())
	}
	q := mustOK(t, "--root", root, "query", "--json", "zanzibarquux").json(t)
	if strings.Contains(fmt.Sprint(q["results"]), "zanzibarquux") {
		t.Fatalf("a file outside the root was indexed through a swapped-in symlink: %v", q["results"])
	}
}
