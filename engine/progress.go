package engine

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/mirror"
)

// Progress hears how a refresh advances, for a progress line. A refresh
// goes through the phases probe (only when an embedder's vector size must
// be learned; total unknown), scan (walking the tree; total unknown), parse
// (reading and parsing the files that changed), then the build (chunking,
// embedding and indexing the changed files) and commit (vectors, fsync,
// sidecar; total unknown). The build is the phase index, in files, or,
// with a remote embedder, whose requests dominate it, the phase embed, in
// chunks to embed (the files indexed go in the detail). Methods are called from several goroutines and
// must be cheap; nil RefreshOptions.Progress costs nothing.
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
	PhaseProbe  = "probe" // one request to learn a provider's vector size
	PhaseScan   = "scan"
	PhaseParse  = "parse"
	PhaseEmbed  = "embed" // the build with a remote embedder, in chunks to embed
	PhaseIndex  = "index" // the build otherwise, in files
	PhaseCommit = "commit"
)

// noProgress is the Progress of a refresh nobody watches.
type noProgress struct{}

func (noProgress) Phase(string, string, int) {}
func (noProgress) Add(int)                   {}
func (noProgress) Detail(string)             {}

func progressOf(o RefreshOptions) Progress {
	if o.Progress == nil {
		return noProgress{}
	}
	return o.Progress
}

// parseProgress turns the mirror's per-file read callback into the parse
// phase, started on the first file read.
func parseProgress(p Progress) func(done, total int) {
	var once sync.Once
	return func(done, total int) {
		once.Do(func() { p.Phase(PhaseParse, "files", total) })
		p.Add(1)
	}
}

// embedWatch is the embed.Observer of a refresh: it counts the inputs a
// remote embedder had to split (reported in RefreshResult) and tells the
// progress line about requests in flight and retry waits. In the embed
// phase it also advances the line by chunks, in proportion to the inputs of
// the current Embed call done (exact unless inputs were split).
type embedWatch struct {
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
}

var _ embed.Observer = (*embedWatch)(nil)

// begin starts an Embed call of chunks texts; end finishes it.
func (w *embedWatch) begin(chunks int) {
	w.mu.Lock()
	w.batch, w.shown = chunks, 0
	w.mu.Unlock()
}

func (w *embedWatch) end() {
	w.mu.Lock()
	if w.count {
		w.p.Add(w.batch - w.shown)
	}
	w.batch, w.shown = 0, 0
	w.mu.Unlock()
}

func (w *embedWatch) Requests(inFlight, done, total int) {
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

// indexed counts n more files indexed in the embed phase.
func (w *embedWatch) indexed(n int) {
	w.filesDone.Add(int64(n))
	w.detail()
}

// detail tells the line the requests in flight and, in the embed phase,
// the files indexed.
func (w *embedWatch) detail() {
	w.mu.Lock()
	inFlight := w.inFlight
	w.mu.Unlock()
	d := fmt.Sprintf("%d requests in flight", inFlight)
	if inFlight == 1 {
		d = "1 request in flight"
	}
	if w.filesTotal > 0 {
		d += fmt.Sprintf(" · %d/%d files indexed", w.filesDone.Load(), w.filesTotal)
	}
	w.p.Detail(d)
}

func (w *embedWatch) Retrying(wait time.Duration, why string) {
	w.p.Detail(fmt.Sprintf("%s, retrying in %s", why, wait.Round(100*time.Millisecond)))
}

func (w *embedWatch) Split(n int) { w.split.Add(int64(n)) }

// context returns ctx carrying w for the embedder.
func (w *embedWatch) context(ctx context.Context) context.Context {
	return embed.WithObserver(ctx, w)
}

// startBuildPhase starts the build's phase. With a remote embedder and
// someone watching, the chunks to embed are counted first: the changed
// files are chunked and their texts looked up in the embedding cache, a
// cost that is small next to the requests it lets the line measure.
func (b *builder) startBuildPhase(ctx context.Context, entries []mirror.Entry) {
	if _, off := b.progress.(noProgress); off || !b.vb.remote() {
		b.progress.Phase(PhaseIndex, "files", len(entries))
		return
	}
	b.progress.Phase(PhaseEmbed, "", -1)
	b.progress.Detail("counting the chunks to embed")
	n := b.vb.toEmbed(ctx, b, entries)
	b.vb.watch.count = true
	b.vb.watch.filesTotal = len(entries)
	b.progress.Phase(PhaseEmbed, "chunks", n)
}

// filesIndexed counts n more files whose chunks are all indexed.
func (b *builder) filesIndexed(n int) {
	if b.vb != nil && b.vb.watch.count {
		b.vb.watch.indexed(n)
		return
	}
	b.progress.Add(n)
}
