package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"github.com/zeebo/blake3"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/recorded"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/upgrade"
)

// What the CLI says when the embedder setting and the index disagree. The
// rule (README "Which embedder an index uses"): the index records its
// embedder, and everything that reads it uses that one. A refresh keeps
// it, unless an embedder was chosen — by a flag, AUTORAG_EMBEDDER /
// AUTORAG_MODEL, or embedder / model in .autorag/config.toml — and the
// chosen one differs: then the refresh switches and says what that costs.
// The built-in default never switches an index. A reader (query, status,
// serve, mcp) with a chosen embedder that differs notes it, with the
// command that applies it, and answers with the index's.

// chosenEmbedder is the setting that chose the embedder (the model's when
// only the model was given), for messages.
func (g *globals) chosenEmbedder(l engine.Layout) settingValue {
	vals, err := g.settings.values(l.ConfigPath())
	if err != nil {
		return settingValue{}
	}
	var out settingValue
	for _, v := range vals {
		if (v.Key == "embedder" || v.Key == "model") && v.Source != sourceDefault && out.Key == "" {
			out = v
		}
	}
	return out
}

// embedderNote is the note for a reader whose chosen embedder differs
// from the one the committed index sc records; "" when they agree.
func (g *globals) embedderNote(e *engine.Engine, sc *fingerprint.Sidecar) string {
	inUse, differs := e.EmbedderInUse(sc)
	if !differs {
		return ""
	}
	if p := upgrade.Pending(e); p != nil && recorded.SameEmbedder(p.Target, e.EmbedderID()) {
		return "" // on its way: status and the answers say how far
	}
	v := g.chosenEmbedder(e.Layout)
	apply := "autorag refresh"
	if v.Source == sourceFlag {
		apply += " " + v.From + " " + v.Value
	}
	return fmt.Sprintf("%s asks for embedder %s, but the index was built with %s, which answers queries; `%s` switches it (%s to embed%s)",
		v.describe(), shortEmbedder(e.EmbedderID()), shortEmbedder(inUse), apply,
		chunksText(sc.Counts.Chunks), costSuffix(e.EmbedderID(), sc.Counts.Chunks))
}

// noteOnce prints a reader's note on w once per committed generation of
// the root: a marker under the cache (safe to delete: the note comes back)
// records that it was shown.
func noteOnce(w io.Writer, e *engine.Engine, sc *fingerprint.Sidecar, note string) {
	if note == "" {
		return
	}
	sum := blake3.Sum256([]byte(sc.Generation + "\x00" + note))
	dir := filepath.Join(e.Layout.CacheDir(), "notes")
	marker := filepath.Join(dir, fmt.Sprintf("%x", sum[:12]))
	if _, err := os.Stat(marker); err == nil {
		return
	}
	fmt.Fprintf(w, "autorag: note: %s\n", note)
	if fingerprint.MkdirAll(dir) == nil {
		_ = os.WriteFile(marker, nil, fingerprint.FilePerm)
	}
}

// switchMessage says what a refresh that switches embedder will do and
// cost; "" when it keeps the index's.
func switchMessage(e *engine.Engine, sc *fingerprint.Sidecar) string {
	if _, differs := e.EmbedderInUse(sc); !differs {
		return ""
	}
	to := e.EmbedderID()
	if to == "none" {
		return fmt.Sprintf("switching embedder %s → none: BM25 only, the vectors are dropped", shortEmbedder(recorded.Embedder(sc)))
	}
	return fmt.Sprintf("switching embedder %s → %s: %s to embed%s", shortEmbedder(recorded.Embedder(sc)), shortEmbedder(to),
		chunksText(sc.Counts.Chunks), costSuffix(to, sc.Counts.Chunks))
}

// cpuPerChunk is the CPU time a transformer model took per chunk,
// measured on restic's 3,026 chunks on an AVX2 x86-64 core without
// AVX-512 (issue 35): what a switch's estimate assumes.
var cpuPerChunk = map[string]time.Duration{
	"all-minilm-l6-v2-q":  80 * time.Millisecond,
	"bge-small-en-v1.5-q": 289 * time.Millisecond,
}

// costSuffix is ", ≈ 4 min" for an embedder whose cost a chunk is known,
// spread over the machine's cores; else "".
func costSuffix(id string, chunks int) string {
	r, ok := parseRecorded(id)
	if !ok {
		return ""
	}
	per, ok := cpuPerChunk[r.model]
	if !ok || r.embedder != "transformer" {
		return ""
	}
	wall := per * time.Duration(chunks) / time.Duration(runtime.GOMAXPROCS(0))
	return ", ≈ " + humanDuration(wall)
}

// chunksText is "1 chunk" or "3,026 chunks".
func chunksText(n int) string {
	if n == 1 {
		return "1 chunk"
	}
	return thousands(n) + " chunks"
}

// thousands formats n with comma separators: 3,026.
func thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
