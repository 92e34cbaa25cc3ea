package engine

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
// (reading and parsing the files that changed), index (chunking, embedding
// and indexing the changed files, in files) and commit (vectors, fsync,
// sidecar; total unknown). Methods are called from several goroutines and
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
	PhaseIndex  = "index"
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
// progress line about requests in flight and retry waits.
type embedWatch struct {
	p     Progress
	split atomic.Int64
}

var _ embed.Observer = (*embedWatch)(nil)

func (w *embedWatch) Requests(inFlight, done, total int) {
	w.p.Detail(fmt.Sprintf("embedding: request %d/%d done, %d in flight", done, total, inFlight))
}

func (w *embedWatch) Retrying(wait time.Duration, why string) {
	w.p.Detail(fmt.Sprintf("embedding: %s, retrying in %s", why, wait.Round(100*time.Millisecond)))
}

func (w *embedWatch) Split(n int) { w.split.Add(int64(n)) }

// context returns ctx carrying w for the embedder.
func (w *embedWatch) context(ctx context.Context) context.Context {
	return embed.WithObserver(ctx, w)
}
