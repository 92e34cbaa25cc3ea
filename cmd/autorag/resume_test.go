package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer written by a child's stderr copier and
// read by the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A long first refresh stays pleasant: its progress line shows the
// embedding rate and the time left, and Ctrl-C keeps the embeddings the
// provider returned before it (all but the group of embedGroup chunks in
// flight), so that the next refresh sends only the chunks that were not
// embedded yet.
func TestInterruptedRefreshKeepsFinishedEmbeddings(t *testing.T) {
	const docs, batch, group = 600, 16, 256 // group: engine's embedGroup
	f := newFakeOllama(t, 16)
	f.set(func(f *fakeOllama) { f.delay = 40 * time.Millisecond })
	root := t.TempDir()
	for i := range docs {
		writeFile(t, root, fmt.Sprintf("doc%02d.md", i), fmt.Sprintf("# Note %d\n\nHeron number %d wades at dawn.\n", i, i))
	}
	env := providerEnv(f, "OPENAI_EMBEDDING_DIMENSIONS=16", "OPENAI_EMBEDDING_BATCH_SIZE="+strconv.Itoa(batch), "OPENAI_EMBEDDING_CONCURRENCY=1")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "--root", root, "refresh", "--progress", "always")
	cmd.Env = append(append(cleanEnv(), "AUTORAG_TEST_MAIN=1"), env...)
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	inputs := func() int {
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.inputs
	}
	for inputs() < 400 {
		if ctx.Err() != nil {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the provider saw %d inputs in a minute; stderr:\n%s", inputs(), stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Wait()
	sent := inputs() // the last request may have been cut short
	if code := cmd.ProcessState.ExitCode(); code != exitInterrupted {
		t.Fatalf("interrupted refresh: exit %d, want %d; stderr:\n%s", code, exitInterrupted, stderr.String())
	}
	if s := stderr.String(); !strings.Contains(s, "chunks/s") || !strings.Contains(s, " left") {
		t.Errorf("the progress line never showed the embedding rate and the time left:\n%q", s)
	}
	out := mustOKEnv(t, env, "--root", root, "refresh", "--json")
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("refresh --json: %v\n%s", err, out)
	}
	hits, embedded := int(num(m, "embed_cache_hits")), int(num(m, "chunks_embedded"))
	if least := sent - group - batch; hits+embedded != docs || hits < least || inputs()-sent != embedded {
		t.Errorf("after %d chunks were sent before Ctrl-C, the next refresh took %d from the cache and embedded %d (%d sent), want %d or more from the cache and the rest embedded",
			sent, hits, embedded, inputs()-sent, least)
	}
}
