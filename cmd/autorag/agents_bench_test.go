//go:build unix

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/autorag/autorag/agentapi"
	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/embed/static"
)

// The agents benchmarks compare, on one index of about 10,000 chunks, the
// same searches answered in process (agentapi over engine.Service), over
// MCP on stdio, over HTTP, and by `autorag query` processes:
//
//	go test -run '^$' -bench BenchmarkAgents -benchtime 2000x ./cmd/autorag
//
// Each reports p50 and p99 latency besides the mean; -8clients variants
// report throughput with 8 concurrent clients. "cached" repeats a set of
// 64 queries (answered from the query cache after the first pass);
// "uncached" sends a query never sent before at every operation.
// BENCH_SERVER_CPUPROFILE=PREFIX writes the servers' CPU profiles to
// PREFIX.mcp and PREFIX.http.

const benchDocs = 5000 // two chunks each

// benchVocabulary is the words of testdata/corpus, drawn with a Zipf law.
func benchVocabulary(tb testing.TB) []string {
	tb.Helper()
	seen := map[string]bool{}
	var words []string
	filepath.WalkDir(filepath.Join("..", "..", "testdata", "corpus"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, _ := os.ReadFile(p)
		for _, w := range strings.FieldsFunc(strings.ToLower(string(b)), func(r rune) bool { return r < 'a' || r > 'z' }) {
			if len(w) > 2 && !seen[w] {
				seen[w] = true
				words = append(words, w)
			}
		}
		return nil
	})
	return words
}

// writeBenchCorpus writes benchDocs markdown files of two sections of
// about 2,000 characters each.
func writeBenchCorpus(tb testing.TB, dir string, words []string) {
	tb.Helper()
	r := rand.New(rand.NewSource(1))
	z := rand.NewZipf(r, 1.1, 2, uint64(len(words)-1))
	for i := range benchDocs {
		var sb strings.Builder
		fmt.Fprintf(&sb, "# Document %d\n\n", i)
		for s := range 2 {
			fmt.Fprintf(&sb, "## Section %d\n\n", s)
			for sb.Len() < (s+1)*2100 {
				for range 12 {
					sb.WriteString(words[z.Uint64()])
					sb.WriteByte(' ')
				}
				sb.WriteString("\n")
			}
			sb.WriteString("\n")
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("doc-%05d.md", i)), []byte(sb.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// benchQueries returns n queries of two or three words drawn uniformly
// from the first pool words of the vocabulary (the Zipf law makes the
// first words the most frequent).
func benchQueries(words []string, pool int, seed int64, n int) []string {
	r := rand.New(rand.NewSource(seed))
	out := make([]string, n)
	for i := range out {
		k := 2 + r.Intn(2)
		parts := make([]string, k)
		for j := range parts {
			parts[j] = words[r.Intn(min(len(words), pool))]
		}
		out[i] = strings.Join(parts, " ")
	}
	return out
}

// latencies records the time of each operation and reports p50 and p99.
type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *latencies) add(d time.Duration) { l.mu.Lock(); l.d = append(l.d, d); l.mu.Unlock() }

func (l *latencies) report(b *testing.B) {
	slices.Sort(l.d)
	if len(l.d) == 0 {
		return
	}
	b.ReportMetric(float64(l.d[len(l.d)/2].Nanoseconds())/1e3, "p50-µs")
	b.ReportMetric(float64(l.d[len(l.d)*99/100].Nanoseconds())/1e3, "p99-µs")
}

// cpuTimes is the CPU time (user and system) used by this process, by its
// children that exited, and by the running process pid (0: none), and the
// system part of pid's.
func cpuTimes(pid int) (self, children, server, serverSys time.Duration) {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru)
	children = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	if pid != 0 {
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
			f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
			ut, _ := strconv.ParseInt(f[11], 10, 64)
			st, _ := strconv.ParseInt(f[12], 10, 64)
			server = time.Duration(ut+st) * 10 * time.Millisecond // USER_HZ is 100 on Linux
			serverSys = time.Duration(st) * 10 * time.Millisecond
		}
	}
	return self, children, server, serverSys
}

// timed runs op b.N times, sequentially or (clients > 1) from that many
// goroutines, and reports latency percentiles, throughput and the CPU
// time per operation of this process plus the CLI processes it ran plus
// the server pid (the machine is shared: CPU time says what an operation
// costs better than the wall clock does).
func timed(b *testing.B, clients, pid int, op func(i int) error) {
	var lat latencies
	var next atomic.Int64
	self0, children0, server0, sys0 := cpuTimes(pid)
	start := time.Now()
	b.ResetTimer()
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= b.N {
					return
				}
				t := time.Now()
				if err := op(i); err != nil {
					b.Error(err)
					return
				}
				lat.add(time.Since(t))
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	elapsed := time.Since(start)
	self1, children1, server1, sys1 := cpuTimes(pid)
	cpu := (self1 - self0) + (children1 - children0) + (server1 - server0)
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/op")
	if pid != 0 {
		b.ReportMetric(float64((server1-server0).Microseconds())/float64(b.N), "server-cpu-µs/op")
		b.ReportMetric(float64((sys1-sys0).Microseconds())/float64(b.N), "server-sys-µs/op")
	}
	lat.report(b)
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "searches/s")
}

func BenchmarkAgents(b *testing.B) {
	words := benchVocabulary(b)
	root := b.TempDir()
	writeBenchCorpus(b, root, words)
	start := time.Now()
	ref := cliB(b, "--root", root, "refresh", "--json")
	var env struct{ Chunks, Files int }
	json.Unmarshal([]byte(ref), &env)
	b.Logf("%d files, %d chunks, indexed in %v", env.Files, env.Chunks, time.Since(start).Round(time.Millisecond))
	// Queries of words drawn from the whole vocabulary ("mixed": mostly
	// rare words, some frequent ones), and from its 600 most frequent
	// words ("common": every term's postings cover most chunks).
	cached := benchQueries(words, len(words), 7, 64)
	mixed := benchQueries(words, len(words), 8, 1<<16)
	common := benchQueries(words, 600, 9, 1<<16)
	var fresh atomic.Int64 // uncached queries never repeat across sub-benchmarks
	uncached := func() string { return mixed[int(fresh.Add(1))%len(mixed)] }
	uncachedCommon := func() string { return common[int(fresh.Add(1))%len(common)] }

	e, err := engine.New(root, func() engine.Settings { s := engine.DefaultSettings(); s.Embedder = static.New(); return s }())
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		cap     int64
		clients int
		query   func(i int) string
	}{
		{"inproc-uncached", 0, 1, func(int) string { return uncached() }},
		{"inproc-uncached-common", 0, 1, func(int) string { return uncachedCommon() }},
		{"inproc-cached", 64 << 20, 1, func(i int) string { return cached[i%len(cached)] }},
		{"inproc-uncached-8clients", 0, 8, func(int) string { return uncached() }},
		{"inproc-cached-8clients", 64 << 20, 8, func(i int) string { return cached[i%len(cached)] }},
	} {
		b.Run(c.name, func(b *testing.B) {
			api := agentapi.New(e, agentapi.Options{CacheBytes: c.cap})
			defer api.Close()
			for _, q := range cached { // open the generation, fill the cache, take the first sources check
				if _, err := api.Search(b.Context(), agentapi.SearchRequest{Query: q}); err != nil {
					b.Fatal(err)
				}
			}
			timed(b, c.clients, 0, func(i int) error {
				_, err := api.Search(b.Context(), agentapi.SearchRequest{Query: c.query(i)})
				return err
			})
		})
	}

	cs, mcpPID := benchMCP(b, root)
	for _, c := range []struct {
		name    string
		clients int
		query   func(i int) string
	}{
		{"mcp-stdio-uncached", 1, func(int) string { return uncached() }},
		{"mcp-stdio-cached", 1, func(i int) string { return cached[i%len(cached)] }},
		{"mcp-stdio-cached-8clients", 8, func(i int) string { return cached[i%len(cached)] }},
	} {
		b.Run(c.name, func(b *testing.B) {
			timed(b, c.clients, mcpPID, func(i int) error {
				res, err := cs.CallTool(b.Context(), &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": c.query(i)}})
				if err == nil && res.IsError {
					err = fmt.Errorf("tool error %+v", res.Content)
				}
				return err
			})
		})
	}

	b.Run("mcp-stdio-cached-typescript", func(b *testing.B) { benchTypeScript(b, root, cached, false) })
	b.Run("mcp-stdio-uncached-typescript", func(b *testing.B) {
		qs := make([]string, b.N+32)
		for i := range qs {
			qs[i] = uncached()
		}
		benchTypeScript(b, root, qs, true)
	})

	base, httpPID := benchServe(b, root)
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	for _, c := range []struct {
		name    string
		clients int
		query   func(i int) string
	}{
		{"http-uncached", 1, func(int) string { return uncached() }},
		{"http-cached", 1, func(i int) string { return cached[i%len(cached)] }},
		{"http-uncached-8clients", 8, func(int) string { return uncached() }},
		{"http-cached-8clients", 8, func(i int) string { return cached[i%len(cached)] }},
	} {
		b.Run(c.name, func(b *testing.B) {
			timed(b, c.clients, httpPID, func(i int) error { return benchGet(hc, base, c.query(i)) })
		})
	}

	for _, c := range []struct {
		name  string
		args  []string
		query func(i int) string
	}{
		{"cli-uncached", []string{"--no-cache"}, func(int) string { return uncached() }},
		{"cli-cached", nil, func(i int) string { return cached[i%len(cached)] }},
	} {
		b.Run(c.name, func(b *testing.B) {
			for _, q := range cached {
				cliB(b, append([]string{"--root", root, "query", "--json", q}, c.args...)...)
			}
			timed(b, 1, 0, func(i int) error {
				cliB(b, append([]string{"--root", root, "query", "--json", c.query(i)}, c.args...)...)
				return nil
			})
		})
	}
}

// cliB runs the CLI (this test binary) and returns its stdout.
func cliB(b *testing.B, args ...string) string {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(cleanEnv(), "AUTORAG_TEST_MAIN=1")
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("autorag %v: %v", args, err)
	}
	return string(out)
}

// benchMCP starts `autorag mcp` on stdio and connects the Go SDK's client.
func benchMCP(b *testing.B, root string) (*mcp.ClientSession, int) {
	cmd := exec.Command(os.Args[0], "--root", root, "mcp")
	cmd.Env = append(cleanEnv(), "AUTORAG_TEST_MAIN=1")
	if p := os.Getenv("BENCH_SERVER_CPUPROFILE"); p != "" {
		cmd.Env = append(cmd.Env, "AUTORAG_CPUPROFILE="+p+".mcp")
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs, cmd.Process.Pid
}

// benchServe starts `autorag serve` and returns its base URL.
func benchServe(b *testing.B, root string) (string, int) {
	cmd := exec.Command(os.Args[0], "--root", root, "serve", "--addr", "127.0.0.1:0")
	cmd.Env = append(cleanEnv(), "AUTORAG_TEST_MAIN=1")
	if p := os.Getenv("BENCH_SERVER_CPUPROFILE"); p != "" {
		cmd.Env = append(cmd.Env, "AUTORAG_CPUPROFILE="+p+".http")
	}
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() })
	buf := make([]byte, 256)
	n, _ := errPipe.Read(buf)
	m := listenLine.FindStringSubmatch(string(buf[:n]))
	if m == nil {
		b.Fatalf("serve said %q", buf[:n])
	}
	go io.Copy(io.Discard, errPipe)
	return m[1], cmd.Process.Pid
}

func benchGet(hc *http.Client, base, q string) error {
	res, err := hc.Get(base + "/v1/search?" + url.Values{"q": {q}}.Encode())
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		return err
	}
	if res.StatusCode != 200 {
		return fmt.Errorf("status %d", res.StatusCode)
	}
	return nil
}

// benchTypeScript times the search tool through the TypeScript SDK's
// client (testdata/mcpclient/bench.mjs), which launches its own server;
// it reports the client's percentiles. With fresh every timed search sends
// a query not sent before (bench.mjs's BENCH_FRESH).
func benchTypeScript(b *testing.B, root string, queries []string, fresh bool) {
	node, err := exec.LookPath("node")
	if err != nil {
		b.Skipf("node is not installed: %v", err)
	}
	qf := filepath.Join(b.TempDir(), "queries.txt")
	if err := os.WriteFile(qf, []byte(strings.Join(queries, "\n")+"\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	dir, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "mcpclient"))
	cmd := exec.Command(node, filepath.Join(dir, "bench.mjs"), strconv.Itoa(b.N), qf, os.Args[0], "--root", root, "mcp")
	cmd.Env = append(cleanEnv(), "AUTORAG_TEST_MAIN=1")
	if fresh {
		cmd.Env = append(cmd.Env, "BENCH_FRESH=1")
	}
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("node bench.mjs: %v", err)
	}
	var r struct {
		P50 float64 `json:"p50_us"`
		P99 float64 `json:"p99_us"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		b.Fatalf("bench.mjs said %q: %v", out, err)
	}
	b.ReportMetric(r.P50, "p50-µs")
	b.ReportMetric(r.P99, "p99-µs")
}
