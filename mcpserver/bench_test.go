//go:build unix

package mcpserver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/autorag/autorag/agentapi"
	"github.com/autorag/autorag/engine"
)

// BenchmarkSearchToolInMemory is one search tool call (ten results of
// about 2,000 characters each, answered from the service's cache) between
// the Go SDK's client and server over in-memory pipes: what the protocol
// costs on top of the search itself. Sub-benchmarks: the default answer
// (snippets, citations as text) and full_text with the JSON text copy, the
// answer before snippets.
func BenchmarkSearchToolInMemory(b *testing.B) {
	b.Run("snippets", func(b *testing.B) { benchSearchTool(b, Options{Version: "bench"}, false) })
	b.Run("full-text-copy", func(b *testing.B) { benchSearchTool(b, Options{Version: "bench", TextCopy: true}, true) })
}

func benchSearchTool(b *testing.B, o Options, fullText bool) {
	root := b.TempDir()
	para := strings.Repeat("the heron fishes by the river at dawn and sleeps at night ", 35)
	for i := range 40 {
		body := fmt.Sprintf("# Doc %d\n\n%s\n", i, para)
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("d%02d.md", i)), []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	e, err := engine.New(root, engine.DefaultSettings())
	if err != nil {
		b.Fatal(err)
	}
	if _, err := e.Refresh(b.Context(), engine.RefreshOptions{}); err != nil {
		b.Fatal(err)
	}
	ws := agentapi.Single(e, agentapi.Options{CacheBytes: 1 << 20})
	defer ws.Close()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(ws, o).Connect(b.Context(), st, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(b.Context(), ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "heron river", "full_text": fullText}}
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		res, err := cs.CallTool(b.Context(), params)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
	res, _ := cs.CallTool(b.Context(), params)
	structured, _ := json.Marshal(res.StructuredContent)
	b.ReportMetric(float64(len(structured)), "structured-bytes")
	b.ReportMetric(float64(len(res.Content[0].(*mcp.TextContent).Text)), "text-bytes")
}

// cpuTime is the CPU time (user and system) this process has used: under
// a loaded machine it says what an operation costs better than the wall
// clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
