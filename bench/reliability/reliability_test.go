package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// testBin is the CLI built once for every test of this package.
var testBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "autorag-reliability-bin-")
	if err != nil {
		panic(err)
	}
	testBin, err = buildCLI(filepath.Join("..", ".."), dir)
	if err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func newTestHarness(t *testing.T) *harness {
	t.Helper()
	return &harness{cli: &cli{bin: testBin, probes: 2}, work: t.TempDir(), log: testLog{t}, seed: 3}
}

type testLog struct{ t *testing.T }

func (l testLog) Write(b []byte) (int, error) { l.t.Log(string(b)); return len(b), nil }

// check fails the test on any failure of o, or when it ran nothing.
func check(t *testing.T, o outcome) {
	t.Helper()
	t.Logf("%s: %d trials, %d failures; %v", o.Scenario, o.Trials, o.Failures, o.Notes)
	if o.Skipped != "" {
		t.Skipf("skipped: %s", o.Skipped)
	}
	if o.Trials == 0 || o.Failures > 0 {
		t.Fatalf("%s: %d trials, %d failures: %v", o.Scenario, o.Trials, o.Failures, o.Notes)
	}
}

func committedFor(t *testing.T, h *harness, files int) *committed {
	t.Helper()
	c, err := h.newCommitted("t", files)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCrashMatrixKill kills a refresh at every failpoint.
func TestCrashMatrixKill(t *testing.T) {
	h := newTestHarness(t)
	check(t, h.crashMatrix(committedFor(t, h, 40), []string{"refresh"}, "kill", refreshPoints()))
}

// TestCrashMatrixError fails an index rebuild with an injected error at
// every failpoint.
func TestCrashMatrixError(t *testing.T) {
	h := newTestHarness(t)
	check(t, h.crashMatrix(committedFor(t, h, 40), []string{"index", "rebuild"}, "error", refreshPoints()))
}

// TestResetCrashes kills index reset at each of its steps.
func TestResetCrashes(t *testing.T) {
	h := newTestHarness(t)
	check(t, h.resetCrashes(committedFor(t, h, 40)))
}

// TestRandomKills kills refreshes and rebuilds at random instants.
func TestRandomKills(t *testing.T) {
	h := newTestHarness(t)
	check(t, h.randomKills(committedFor(t, h, 200), 4))
}

// TestContention runs 8 refreshers, 8 queriers and the kill loop briefly.
func TestContention(t *testing.T) {
	h := newTestHarness(t)
	check(t, h.contention(committedFor(t, h, 60), 8, 8, 6*time.Second))
}

// TestDiskFullAndReadOnly needs root for the tmpfs and the read-only bind
// mount; without it the disk-full half is skipped with the reason logged.
func TestDiskFullAndReadOnly(t *testing.T) {
	h := newTestHarness(t)
	check(t, h.readOnly(committedFor(t, h, 40)))
	check(t, h.diskFull(60))
}

// TestProviderFaults runs the provider failure classes that fail fast
// (the retried ones, with their backoff, run in make reliability).
func TestProviderFaults(t *testing.T) {
	h := newTestHarness(t)
	fast := map[string]bool{"429 storm": true, "401 echoing the key": true, "malformed JSON": true,
		"wrong count of vectors": true, "wrong dimensions": true, "SIGINT mid-batch": true}
	check(t, h.providerFaults(30, func(name string) bool { return fast[name] }))
}

// TestHostileScale indexes 5,000 files in one directory and a 200-deep
// tree (the harness does 100,000 files).
func TestHostileScale(t *testing.T) {
	check(t, newTestHarness(t).hostileScale(5000, 200))
}

// TestPathEntries tries every way a path enters against every trap.
func TestPathEntries(t *testing.T) { check(t, newTestHarness(t).pathEntries()) }

// TestAmplification refreshes every amplifier under the memory cap.
func TestAmplification(t *testing.T) { check(t, newTestHarness(t).amplification()) }

// TestServerAbuse sends every endpoint of both servers every abuse.
func TestServerAbuse(t *testing.T) { check(t, newTestHarness(t).serverAbuse()) }

// TestRerankFailures: one round of every rerank fault on every surface.
func TestRerankFailures(t *testing.T) { check(t, newTestHarness(t).rerankFailures(1)) }

// TestWatchOverflow overflows a stopped watch's event queue once.
func TestWatchOverflow(t *testing.T) { check(t, newTestHarness(t).watchOverflow(1)) }

// TestIdleCompaction: watch's idle compaction of a churned per-language
// index changes no answer.
func TestIdleCompaction(t *testing.T) { check(t, newTestHarness(t).idleCompaction()) }

// TestWeaviateOwn needs the cluster of make weaviate-up (skipped without
// AUTORAG_WEAVIATE_URL, like the Weaviate tests of the engine).
func TestWeaviateOwn(t *testing.T) {
	check(t, newTestHarness(t).weaviateOwn(os.Getenv("AUTORAG_WEAVIATE_URL")))
}

// TestUserFiles edits every user file every hostile way.
func TestUserFiles(t *testing.T) { check(t, newTestHarness(t).userFiles(1)) }

// TestModelPulls pulls a model of the user's cache from a local hub with
// faults (skipped when no hub model is installed to serve).
func TestModelPulls(t *testing.T) { check(t, newTestHarness(t).modelPulls()) }

// TestURLSecrets looks for secrets written in URLs wherever URLs are
// shown or stored, and behind redirects to another origin.
func TestURLSecrets(t *testing.T) { check(t, newTestHarness(t).urlSecrets()) }

// TestMappedFault damages a mapped file of one of two roots under every
// server surface.
func TestMappedFault(t *testing.T) { check(t, newTestHarness(t).mappedFault(1)) }

// TestCardinality refreshes 2 MiB of each high-cardinality text under the
// RSS bound, by the CLI and by serve --watch.
func TestCardinality(t *testing.T) { check(t, newTestHarness(t).cardinality(2)) }

// TestServerInputs gives servers what they must bound, refuse or merge.
func TestServerInputs(t *testing.T) { check(t, newTestHarness(t).serverInputs(1)) }
