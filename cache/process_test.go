package cache

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The tests here run several real processes: the test binary re-executed
// with helperEnv naming what the child does.
const (
	helperEnv = "AUTORAG_CACHE_HELPER"
	dirEnv    = "AUTORAG_CACHE_DIR"
	argEnv    = "AUTORAG_CACHE_ARG"
)

// helper starts the test binary as a child doing mode.
func helper(t *testing.T, mode, dir, arg string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, dirEnv+"="+dir, argEnv+"="+arg, "GORACE=atexit_sleep_ms=0")
	return cmd
}

func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		t.Skip("helper process for the cross-process tests")
	}
	dir, arg := os.Getenv(dirEnv), os.Getenv(argEnv)
	var err error
	switch mode {
	case "query-writer":
		err = queryWriter(dir, arg)
	case "emb-writer":
		err = embWriter(dir)
	case "emb-reader":
		err = embReader(dir)
	case "emb-holder":
		err = embHolder(dir, arg)
	default:
		err = fmt.Errorf("unknown helper mode %q", mode)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(3)
	}
	os.Exit(0)
}

const (
	sharedKeys = 600
	sharedCap  = 48 << 10
)

// queryWriter Puts 500 entries of overlapping keys (values derived from the
// key), reading back a key now and then; any wrong value is an error.
func queryWriter(dir, arg string) error {
	id, _ := strconv.Atoi(arg)
	q := OpenQueries(dir, sharedCap)
	for i := range 500 {
		k := (i*7 + id*13) % sharedKeys
		if err := q.Put(fpA, testKey(k), testValue(k)); err != nil {
			return err
		}
		r := (i*31 + id) % sharedKeys
		if v, ok := q.Get(fpA, testKey(r)); ok && !bytes.Equal(v, testValue(r)) {
			return fmt.Errorf("key %d served a wrong value", r)
		}
	}
	return nil
}

func TestQueriesConcurrentProcesses(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	outs := make([][]byte, 4)
	errs := make([]error, 4)
	for p := range 4 {
		cmd := helper(t, "query-writer", dir, strconv.Itoa(p))
		wg.Go(func() { outs[p], errs[p] = cmd.CombinedOutput() })
	}
	wg.Wait()
	for p := range 4 {
		if errs[p] != nil {
			t.Fatalf("writer %d: %v\n%s", p, errs[p], outs[p])
		}
	}
	q := OpenQueries(dir, sharedCap)
	present := 0
	for k := range sharedKeys {
		v, ok := q.Get(fpA, testKey(k))
		if ok && !bytes.Equal(v, testValue(k)) {
			t.Fatalf("key %d: wrong value after concurrent writers", k)
		}
		if ok {
			present++
		}
	}
	entries, all, temps := cacheBytes(t, dir)
	t.Logf("%d of %d keys present; %d bytes of entries, %d of files (cap %d)", present, sharedKeys, entries, all, sharedCap)
	if present == 0 {
		t.Fatal("no entry survived")
	}
	if entries > sharedCap {
		t.Fatalf("entries total %d bytes, over the cap %d", entries, sharedCap)
	}
	if temps != 0 {
		t.Fatalf("%d temporary files left behind", temps)
	}
}

const embDims = 1536

// embWriter appends batches of vectors forever, printing after each Flush
// how many are durable, until it is killed.
func embWriter(dir string) error {
	c, err := OpenEmbeddings(dir, "crash")
	if err != nil {
		return err
	}
	for i := 0; ; i++ {
		if err := c.Put(testHash(i), testVec(i, embDims)); err != nil {
			return err
		}
		if i%50 == 49 {
			if err := c.Flush(); err != nil {
				return err
			}
			fmt.Printf("flushed %d\n", i+1)
		}
	}
}

// TestEmbeddingsSurviveKill kills a writer process at an arbitrary point:
// everything it reported flushed is served, nothing served is wrong, and a
// new writer carries on.
func TestEmbeddingsSurviveKill(t *testing.T) {
	dir := t.TempDir()
	cmd := helper(t, "emb-writer", dir, "")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	flushed := 0
	sc := bufio.NewScanner(out)
	for flushed < 1000 && sc.Scan() {
		flushed, _ = strconv.Atoi(strings.TrimPrefix(sc.Text(), "flushed "))
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if flushed < 1000 {
		t.Fatalf("writer stopped after %d flushed: %s", flushed, stderr.String())
	}
	c := openEmb(t, dir, "crash")
	defer c.Close()
	if c.Len() < flushed {
		t.Fatalf("Len = %d after the kill; %d were flushed", c.Len(), flushed)
	}
	n := c.Len()
	checkRange(t, c, 0, flushed, embDims)
	for i := flushed; i < n+100; i++ {
		if v, ok := c.Get(testHash(i)); ok && !slices.Equal(v, testVec(i, embDims)) {
			t.Fatalf("entry %d: wrong vector after the kill", i)
		}
	}
	putRange(t, c, 100_000, 100_010, embDims)
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	checkRange(t, openEmb(t, dir, "crash"), 100_000, 100_010, embDims)
	t.Logf("killed after %d flushed; %d served on reopen", flushed, n)
}

// embReader opens the cache repeatedly while another process writes and
// collects it; every vector served must be the right one.
func embReader(dir string) error {
	deadline := time.Now().Add(20 * time.Second)
	for round := 0; round < 40 && time.Now().Before(deadline); round++ {
		c, err := OpenEmbeddings(dir, "shared")
		if err != nil {
			return err
		}
		for i := range 3000 {
			if v, ok := c.Get(testHash(i)); ok && !slices.Equal(v, testVec(i, 32)) {
				return fmt.Errorf("round %d: entry %d: wrong vector", round, i)
			}
		}
		if err := c.Close(); err != nil {
			return err
		}
	}
	return nil
}

func TestEmbeddingsReadersWhileWriting(t *testing.T) {
	dir := t.TempDir()
	w := openEmb(t, dir, "shared")
	defer w.Close()
	putRange(t, w, 0, 100, 32)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	var readers []*exec.Cmd
	var outs []*bytes.Buffer
	for range 2 {
		cmd := helper(t, "emb-reader", dir, "")
		var b bytes.Buffer
		cmd.Stdout, cmd.Stderr = &b, &b
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		readers, outs = append(readers, cmd), append(outs, &b)
	}
	done := make(chan struct{})
	go func() {
		for _, r := range readers {
			_ = r.Wait()
		}
		close(done)
	}()
	collects := 0
loop:
	// i runs over 100, 300, ..., 2900, then starts over.
	for i := 100; ; i = 100 + (i+100)%3000 {
		select {
		case <-done:
			break loop
		default:
		}
		putRange(t, w, i, i+100, 32) // a no-op for entries still held
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if i%1000 == 100 { // rewrite the log under the readers, evicting one
			if _, err := w.Collect(func(h [32]byte) bool { return h != testHash(i-1) }, 1); err != nil {
				t.Fatal(err)
			}
			collects++
		}
	}
	for k, r := range readers {
		if !r.ProcessState.Success() {
			t.Fatalf("reader %d: %v\n%s", k, r.ProcessState, outs[k])
		}
	}
	if collects == 0 {
		t.Fatal("the readers finished before any Collect rewrote the log under them")
	}
	t.Logf("%d rewrites under the readers", collects)
}
