package main

import (
	"strings"
	"testing"
	"time"
)

// upgradeProgress runs `autorag upgrade` on a pseudo-terminal after a
// `refresh --no-wait` left the upgrade to it, and returns what the
// terminal showed before the summary: the progress line's frames.
func upgradeProgress(t *testing.T, env []string, root string, before func()) string {
	t.Helper()
	if r := cli(t, env, "--root", root, "refresh", "--no-wait"); r.code != 0 {
		t.Fatalf("refresh --no-wait: exit %d\n%s", r.code, r.stderr)
	}
	before()
	raw, _, code := ttyRun(t, env, false, "--root", root, "upgrade")
	if code != 0 {
		t.Fatalf("upgrade on a terminal: exit %d\n%q", code, raw)
	}
	end := strings.IndexByte(raw, '\n')
	if end < 0 {
		t.Fatalf("no summary after the upgrade: %q", raw)
	}
	return raw[:end]
}

// TestUpgradeProgressRemote: the progress line of an upgrade through a
// remote provider tells what the provider does, as a rebuild's does
// (TestProgressOnTerminal): the requests in flight, a 429's wait, the
// chunks advancing with the requests, a rate and the time left.
func TestUpgradeProgressRemote(t *testing.T) {
	f := newFakeOllama(t, 8)
	root := copyCorpus(t)
	env := providerEnv(f, "OPENAI_EMBEDDING_BATCH_SIZE=2", "OPENAI_EMBEDDING_CONCURRENCY=2")
	progress := upgradeProgress(t, env, root, func() {
		f.set(func(f *fakeOllama) { f.delay, f.limit429 = 40*time.Millisecond, 2 })
	})
	for _, want := range []string{"embed ", "/92 chunks", "chunks/s", "left", "requests in flight", "HTTP 429", "retrying in 1s"} {
		if !strings.Contains(progress, want) {
			t.Errorf("upgrade progress lacks %q: %q", want, progress)
		}
	}
	if strings.Contains(progress, "in process") {
		t.Errorf("a remote provider's upgrade speaks of a model in process: %q", progress)
	}
}

// TestUpgradeProgressInProcess: an upgrade with a model run in process
// says so, and never speaks of requests in flight.
func TestUpgradeProgressInProcess(t *testing.T) {
	root := stagedTree(t, 24)
	progress := upgradeProgress(t, stagedEnv, root, func() {})
	if !strings.Contains(progress, "model in process on") || !strings.Contains(progress, "embed ") {
		t.Errorf("upgrade progress with a transformer: %q; want the embed phase and the model in process", progress)
	}
	if strings.Contains(progress, "in flight") {
		t.Errorf("an in-process model's upgrade speaks of requests in flight: %q", progress)
	}
}
