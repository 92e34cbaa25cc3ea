package progress

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/autorag/autorag/engine/embed"
)

// Progress hears how a refresh advances, for a progress line. A refresh
// goes through the phases probe (only when an embedder's vector size must
// be learned; total unknown), scan (walking the tree; total unknown), parse
// (reading and parsing the files that changed), then the build (chunking,
// embedding and indexing the changed files) and commit (vectors, fsync,
// sidecar; total unknown). The build is the phase index, in files, or,
// with a remote embedder, whose requests dominate it, the phase embed, in
// chunks to embed (the files indexed go in the detail). Methods are called
// from several goroutines and must be cheap; nil RefreshOptions.Progress
// costs nothing.
type Progress interface {
	// Phase starts a phase; total < 0 when it is not known.
	Phase(name, unit string, total int)
	// Add counts n more units done in the current phase.
	Add(n int)
	// Detail replaces the phase's detail text, e.g. what the embedder is
	// doing ("3 requests in flight", "HTTP 429: retrying in 12s").
	Detail(text string)
}

// Phases of a refresh, as Progress.Phase names them.
const (
	Probe  = "probe" // one request to learn a provider's vector size
	Scan   = "scan"
	Parse  = "parse"
	Embed  = "embed" // the build with a remote embedder, in chunks to embed
	Index  = "index" // the build otherwise, in files
	Commit = "commit"
)

// None is the Progress of a refresh nobody watches.
type None struct{}

func (None) Phase(string, string, int) {}
func (None) Add(int)                   {}
func (None) Detail(string)             {}

// Of is p, or None for nil.
func Of(p Progress) Progress {
	if p == nil {
		return None{}
	}
	return p
}

// Parsing turns the mirror's per-file read callback into the parse phase,
// started on the first file read.
func Parsing(p Progress) func(done, total int) {
	var once sync.Once
	return func(done, total int) {
		once.Do(func() { p.Phase(Parse, "files", total) })
		p.Add(1)
	}
}

// Watch is the embed.Observer of a refresh: it counts the inputs a
// remote embedder had to split (reported in RefreshResult) and tells the
// progress line about requests in flight and retry waits. In the embed
// phase it also advances the line by chunks, in proportion to the inputs of
// the current Embed call done (exact unless inputs were split).
type Watch struct {
	p     Progress
	split atomic.Int64
	// With the embed phase: files indexed so far, of filesTotal.
	filesDone  atomic.Int64
	filesTotal int

	mu       sync.Mutex
	count    bool // embed phase: the line counts chunks
	batch    int  // chunks of the current Embed call
	shown    int  // of those, already added to the line
	inFlight int  // requests, as last reported
	cores    int  // > 0: the model runs in this process, on this many cores
}

var _ embed.Observer = (*Watch)(nil)

// NewWatch is the embed.Observer of a refresh that p watches.
func NewWatch(p Progress) *Watch { return &Watch{p: p} }

// InProcess says that the embedder is a model run in this process on
// cores cores: the detail then says so rather than count requests.
func (w *Watch) InProcess(cores int) { w.cores = cores }

// CountChunks makes the embed phase count chunks, with filesTotal files
// to index in its detail.
func (w *Watch) CountChunks(filesTotal int) { w.count, w.filesTotal = true, filesTotal }

// Counting reports an embed phase that counts chunks.
func (w *Watch) Counting() bool { return w.count }

// Splits is the number of inputs the embedder had to split.
func (w *Watch) Splits() int { return int(w.split.Load()) }

// Begin starts an Embed call of chunks texts; End finishes it.
func (w *Watch) Begin(chunks int) {
	w.mu.Lock()
	w.batch, w.shown = chunks, 0
	w.mu.Unlock()
}

func (w *Watch) End() {
	w.mu.Lock()
	if w.count {
		w.p.Add(w.batch - w.shown)
	}
	w.batch, w.shown = 0, 0
	w.mu.Unlock()
}

func (w *Watch) Requests(inFlight, done, total int) {
	w.mu.Lock()
	if w.count && total > 0 {
		if target := w.batch * done / total; target > w.shown {
			w.p.Add(target - w.shown)
			w.shown = target
		}
	}
	w.inFlight = inFlight
	w.mu.Unlock()
	w.detail()
}

// Indexed counts n more files indexed in the embed phase.
func (w *Watch) Indexed(n int) {
	w.filesDone.Add(int64(n))
	w.detail()
}

// detail tells the line what the embedder is doing (the requests in
// flight to a remote one; the cores an in-process model runs on) and, in
// the embed phase, the files indexed.
func (w *Watch) detail() {
	w.mu.Lock()
	inFlight := w.inFlight
	w.mu.Unlock()
	var d string
	switch {
	case w.cores == 1:
		d = "model in process on 1 core"
	case w.cores > 1:
		d = fmt.Sprintf("model in process on %d cores", w.cores)
	case inFlight == 1:
		d = "1 request in flight"
	default:
		d = fmt.Sprintf("%d requests in flight", inFlight)
	}
	if w.filesTotal > 0 {
		d += fmt.Sprintf(" · %d/%d files indexed", w.filesDone.Load(), w.filesTotal)
	}
	w.p.Detail(d)
}

func (w *Watch) Retrying(wait time.Duration, why string) {
	w.p.Detail(fmt.Sprintf("%s, retrying in %s", why, wait.Round(100*time.Millisecond)))
}

func (w *Watch) Split(n int) { w.split.Add(int64(n)) }

// Context returns ctx carrying w for the embedder.
func (w *Watch) Context(ctx context.Context) context.Context {
	return embed.WithObserver(ctx, w)
}
