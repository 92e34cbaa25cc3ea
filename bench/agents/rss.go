package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"text/tabwriter"
	"time"
)

// runRSS starts `autorag serve` over one root holding every document and
// over 20 roots holding a twentieth each, and reads its resident memory
// from /proc: idle after start, at its peak under load (4 clients
// searching every root for 15 s), and idle again once --idle-close has
// closed the roots.
func runRSS(ctx context.Context, c *config) error {
	bin := filepath.Join(c.work, "autorag")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/autorag")
	build.Stdout, build.Stderr = c.stderr, c.stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("build: %w", err)
	}
	if _, _, err := index(ctx, filepath.Join(c.work, "all"), c.ds.Docs, c); err != nil {
		return err
	}
	var parts []string
	for i, docs := range split(c.ds.Docs, 20) {
		dir := filepath.Join(c.work, "split20", fmt.Sprintf("part%d", i))
		if _, _, err := index(ctx, dir, docs, c); err != nil {
			return err
		}
		parts = append(parts, dir)
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "roots\tdocs per root\tquery cache\tRSS idle at start (MiB)\tRSS peak under load (MiB)\tsearches/s\tRSS idle, all open (MiB)\tRSS after idle-close (MiB)\topen after\n")
	for _, roots := range [][]string{{filepath.Join(c.work, "all")}, parts} {
		for _, cache := range []string{"", "0"} {
			m, err := measure(ctx, bin, roots, cache, c)
			if err != nil {
				return err
			}
			fmt.Fprintf(tw, "%d\t%d\t%s\t%.1f\t%.1f\t%.0f\t%.1f\t%.1f\t%d\n", len(roots), len(c.ds.Docs)/len(roots), cmp.Or(cache, "64 MiB"),
				m.idle, m.peak, m.qps, m.open, m.after, m.closedOpen)
		}
	}
	return tw.Flush()
}

type rssFigures struct {
	idle, peak, open, after, qps float64
	closedOpen                   int // roots still open after --idle-close
}

var listening = regexp.MustCompile(`listening on (http://[0-9.:]+)`)

// measure runs one server over roots (cache: AUTORAG_QUERY_CACHE_BYTES,
// "" for the default).
func measure(ctx context.Context, bin string, roots []string, cache string, c *config) (*rssFigures, error) {
	args := []string{"serve", "--addr", "127.0.0.1:0", "--idle-close", "3s"}
	for _, r := range roots {
		args = append(args, "--root", r)
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = os.Environ()
	if cache != "" {
		cmd.Env = append(cmd.Env, "AUTORAG_QUERY_CACHE_BYTES="+cache)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer func() { _ = cmd.Process.Signal(syscall.SIGTERM); _ = cmd.Wait() }()
	lines := bufio.NewScanner(stderr)
	var base string
	for base == "" && lines.Scan() {
		if m := listening.FindStringSubmatch(lines.Text()); m != nil {
			base = m[1]
		}
	}
	if base == "" {
		return nil, fmt.Errorf("the server did not say where it listens")
	}
	go func() {
		for lines.Scan() {
		}
	}()
	pid := cmd.Process.Pid
	time.Sleep(time.Second)
	f := &rssFigures{idle: rssMiB(pid, "VmRSS")}
	n, peak := load(ctx, base, pid, c, 15*time.Second)
	f.qps, f.peak = float64(n)/15, peak
	time.Sleep(500 * time.Millisecond)
	f.open = rssMiB(pid, "VmRSS") // every root still open, no request running
	time.Sleep(8 * time.Second)   // past --idle-close
	f.after = rssMiB(pid, "VmRSS")
	f.closedOpen = openRoots(base)
	return f, nil
}

// load runs 4 clients searching every root until d has passed, sampling
// the RSS; it returns the searches done and the peak RSS.
func load(ctx context.Context, base string, pid int, c *config, d time.Duration) (int64, float64) {
	var done atomic.Int64
	stop := time.Now().Add(d)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := w; time.Now().Before(stop) && ctx.Err() == nil; i += 4 {
				q := c.ds.Queries[i%len(c.ds.Queries)].Text
				res, err := http.Get(base + "/v1/search?" + url.Values{"q": {q}, "max_tokens": {"1000"}}.Encode())
				if err == nil {
					res.Body.Close()
					done.Add(1)
				}
			}
		})
	}
	peak := 0.0
	for time.Now().Before(stop) {
		peak = max(peak, rssMiB(pid, "VmRSS"))
		time.Sleep(100 * time.Millisecond)
	}
	wg.Wait()
	return done.Load(), max(peak, rssMiB(pid, "VmHWM"))
}

// rssMiB reads a field of /proc/PID/status in MiB.
func rssMiB(pid int, field string) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

func openRoots(base string) int {
	res, err := http.Get(base + "/v1/status")
	if err != nil {
		return -1
	}
	defer res.Body.Close()
	var st struct {
		Roots []struct {
			Open bool `json:"open"`
		} `json:"roots"`
	}
	if json.NewDecoder(res.Body).Decode(&st) != nil {
		return -1
	}
	n := 0
	for _, r := range st.Roots {
		if r.Open {
			n++
		}
	}
	return n
}
