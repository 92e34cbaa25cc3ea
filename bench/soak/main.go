// Command soak runs `autorag watch` for a long time under a steady trickle
// of changes and reports its memory over time and its tick counts: the
// watcher must keep up and its memory must stay flat. Not a CI test.
//
//	go run ./bench/soak -corpus testdata/corpus -duration 10m -every 1s
//
// Each -every it makes one change in a copy of the corpus, cycling through
// create, modify, rename and delete of files under soak/ (and a directory
// now and then); every -sample it reads the watcher's VmRSS from
// /proc/PID/status. At the end it checks that the last change is
// searchable, that a full refresh finds nothing the watcher missed, and
// that `index verify` passes.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

func main() {
	corpus := flag.String("corpus", "testdata/corpus", "corpus to copy")
	bin := flag.String("bin", "", "autorag binary (default: go build ./cmd/autorag)")
	work := flag.String("work", filepath.Join(os.TempDir(), "autorag-soak"), "scratch directory")
	duration := flag.Duration("duration", 10*time.Minute, "how long to run")
	every := flag.Duration("every", time.Second, "one change this often")
	sample := flag.Duration("sample", 30*time.Second, "RSS sampling period")
	flag.Parse()
	if err := run(context.Background(), *corpus, *bin, *work, *duration, *every, *sample); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, corpus, bin, work string, duration, every, sample time.Duration) error {
	if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	if bin == "" {
		bin = filepath.Join(work, "autorag")
		if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/autorag").CombinedOutput(); err != nil {
			return fmt.Errorf("build: %v: %s", err, out)
		}
	}
	root := filepath.Join(work, "root")
	_ = os.RemoveAll(root)
	if out, err := exec.Command("cp", "-r", corpus, root).CombinedOutput(); err != nil {
		return fmt.Errorf("copy: %v: %s", err, out)
	}
	defer os.RemoveAll(root)
	cmd := exec.CommandContext(ctx, bin, "--root", root, "watch", "--json", "--compact-idle", "20s")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	var counts tally
	go counts.read(out)
	start := time.Now()
	fmt.Printf("soak: watch pid %d on %s for %s, one change every %s\n", cmd.Process.Pid, root, duration, every)
	fmt.Printf("%8s %10s %8s %s\n", "elapsed", "RSS", "changes", "ticks by outcome")
	ch := &changer{root: filepath.Join(root, "soak")}
	changeT, sampleT := time.NewTicker(every), time.NewTicker(sample)
	defer changeT.Stop()
	defer sampleT.Stop()
	report := func() {
		fmt.Printf("%8s %10s %8d %s\n", time.Since(start).Round(time.Second), rss(cmd.Process.Pid), ch.n, counts.String())
	}
	report()
	for end := time.After(duration); ; {
		select {
		case <-changeT.C:
			if err := ch.next(); err != nil {
				return err
			}
		case <-sampleT.C:
			report()
		case <-end:
			report()
			return finish(bin, root, cmd, ch)
		}
	}
}

// finish waits until the last change is searchable, stops the watcher
// and verifies the index.
func finish(bin, root string, cmd *exec.Cmd, ch *changer) error {
	word := ch.lastWord
	deadline := time.Now().Add(time.Minute)
	for {
		out, err := exec.Command(bin, "--root", root, "query", "--json", "--mode", "bm25", word).Output()
		if err == nil && strings.Contains(string(out), `"path"`) {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the last change (%s) is not searchable a minute later", word)
		}
		time.Sleep(100 * time.Millisecond)
	}
	// The watcher is idle: a full walk in another process must find that
	// it missed nothing. (A reconcile tick may report "updated": it also
	// carries the event changes pending when it fired.)
	out, err := exec.Command(bin, "--root", root, "refresh", "--json").Output()
	if err != nil {
		return fmt.Errorf("final refresh: %w", err)
	}
	var env struct{ Outcome string }
	if err := json.Unmarshal(out, &env); err != nil || env.Outcome != "unchanged" {
		return fmt.Errorf("a full refresh after the soak found work the watcher missed: %s", out)
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("watch exit: %w", err)
	}
	if out, err := exec.Command(bin, "--root", root, "index", "verify").CombinedOutput(); err != nil {
		return fmt.Errorf("index verify: %v: %s", err, out)
	}
	fmt.Println("soak: last change searchable, a full refresh found nothing missed, watch exited 0, index verify passed")
	return nil
}

// rss reads VmRSS of pid.
func rss(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "?"
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			return strings.Join(strings.Fields(v), " ")
		}
	}
	return "?"
}

// changer makes one change per call, cycling through the kinds.
type changer struct {
	root     string
	n        int
	lastWord string
}

func (c *changer) next() error {
	c.n++
	i := c.n
	c.lastWord = fmt.Sprintf("soak%sqz", letters(i))
	text := fmt.Sprintf("# Soak %d\n\nChange %d mentions %s.\n", i, i, c.lastWord)
	file := func(k int) string { return filepath.Join(c.root, fmt.Sprintf("d%d", k%7), fmt.Sprintf("f%d.md", k%50)) }
	p := file(i)
	switch i % 10 {
	case 3: // rename a file over another
		if err := writeFile(p, "renamed away "+text); err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(file(i+1)), 0o755); err != nil {
			return err
		}
		if err := os.Rename(p, file(i+1)); err != nil {
			return err
		}
	case 6: // delete a file (one that may not exist is fine)
		_ = os.Remove(file(i + 3))
	case 9: // now and then, a directory disappears or is renamed
		d := filepath.Join(c.root, fmt.Sprintf("d%d", (i/10)%7))
		if (i/10)%2 == 0 {
			_ = os.RemoveAll(d)
		} else {
			_ = os.Rename(d, d+"-moved")
			_ = os.RemoveAll(d + "-moved")
		}
	}
	return writeFile(p, text)
}

func writeFile(p, text string) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(text), 0o644)
}

func letters(n int) string {
	s := ""
	for ; n > 0; n /= 26 {
		s += string(rune('a' + n%26))
	}
	return s
}

// tally counts the watcher's ticks by trigger and outcome.
type tally struct {
	mu sync.Mutex
	m  map[string]int
}

func (t *tally) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var m struct{ Trigger, Outcome string }
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		t.mu.Lock()
		if t.m == nil {
			t.m = map[string]int{}
		}
		t.m[m.Trigger+"/"+m.Outcome]++
		t.mu.Unlock()
	}
}

func (t *tally) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var parts []string
	for _, k := range sortedKeys(t.m) {
		parts = append(parts, fmt.Sprintf("%s %d", k, t.m[k]))
	}
	return strings.Join(parts, ", ")
}

func sortedKeys(m map[string]int) []string { return slices.Sorted(maps.Keys(m)) }
