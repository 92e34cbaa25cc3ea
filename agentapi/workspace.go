package agentapi

import (
	"fmt"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/autorag/autorag/engine"
)

// Member is one root of a workspace, under the name requests use for it.
type Member struct {
	Name   string
	Engine *engine.Engine
}

// WorkspaceOptions configure a Workspace.
type WorkspaceOptions struct {
	Options // each root's API
	// IdleClose closes a root's open generation and query cache after this
	// long without a request (reopened by the next); 0 keeps them open.
	IdleClose time.Duration
	// Parallel bounds the roots one request works on at once; 0 = 4.
	Parallel int
	// Merge is how the roots' rankings are merged: MergeEvidence (""),
	// MergeCoverage, MergeScaled, MergeScore, MergeRank or MergeCosine.
	Merge string
	// Default is the root a request naming none goes to ("": every root).
	// A request can still name AllRoots.
	Default string
}

// AllRoots names every root of a workspace in a request.
const AllRoots = "all"

// Workspace answers agents' requests over several roots: searches go to
// every root (or the one named) at once and are merged (merge.go), status
// and refresh are per root, and a root that fails never fails the others
// (see doc.go, "Workspaces").
type Workspace struct {
	o       WorkspaceOptions
	members []*member
	byName  map[string]*member
	snips   snippetCache

	stop chan struct{}
	wg   sync.WaitGroup
}

// member is a root and its API, opened on first use and closed when idle.
type member struct {
	name string
	e    *engine.Engine
	o    Options

	mu    sync.Mutex
	api   *API
	users int
	last  time.Time
}

// NewWorkspace returns a workspace over ms (at least one; names unique and
// non-empty). Close releases it.
func NewWorkspace(ms []Member, o WorkspaceOptions) (*Workspace, error) {
	if len(ms) == 0 {
		return nil, usagef("a workspace needs at least one root")
	}
	if o.Parallel <= 0 {
		o.Parallel = 4
	}
	w := &Workspace{o: o, byName: map[string]*member{}, stop: make(chan struct{})}
	for _, m := range ms {
		if m.Name == "" || m.Name == AllRoots || strings.ContainsAny(m.Name, "/\\") {
			return nil, usagef("root name %q: want a non-empty name without slashes, not %q", m.Name, AllRoots)
		}
		if _, dup := w.byName[m.Name]; dup {
			return nil, usagef("two roots are named %q", m.Name)
		}
		mb := &member{name: m.Name, e: m.Engine, o: o.Options}
		w.members = append(w.members, mb)
		w.byName[m.Name] = mb
	}
	if _, ok := w.byName[o.Default]; o.Default != "" && !ok {
		return nil, usagef("default root %q is not one of %s", o.Default, strings.Join(w.Names(), ", "))
	}
	if o.IdleClose > 0 {
		w.wg.Go(w.reap)
	}
	return w, nil
}

// Single is a workspace of one root named after its directory.
func Single(e *engine.Engine, o Options) *Workspace {
	w, err := NewWorkspace([]Member{{Name: RootName(e.Layout.Root), Engine: e}}, WorkspaceOptions{Options: o})
	if err != nil {
		panic(err) // one member with a valid name cannot fail
	}
	return w
}

// RootName is the default name of a root: its directory's base name.
func RootName(root string) string {
	n := filepath.Base(root)
	switch n {
	case "", ".", string(filepath.Separator):
		return "root"
	case AllRoots:
		return AllRoots + "-root" // AllRoots names every root
	}
	return n
}

// Names are the roots' names, in the order given.
func (w *Workspace) Names() []string {
	out := make([]string, len(w.members))
	for i, m := range w.members {
		out[i] = m.name
	}
	return out
}

// Engines are the roots' engines, in the order of Names.
func (w *Workspace) Engines() []*engine.Engine {
	out := make([]*engine.Engine, len(w.members))
	for i, m := range w.members {
		out[i] = m.e
	}
	return out
}

// Close stops the idle reaper and closes every open root.
func (w *Workspace) Close() error {
	close(w.stop)
	w.wg.Wait()
	for _, m := range w.members {
		m.closeIfIdle(time.Time{}, 0, true)
	}
	return nil
}

// pick returns the members a request names: the default root (all when
// none) for "", all for AllRoots, else the one of that name, or the one
// whose root holds that absolute path (the deepest).
func (w *Workspace) pick(root string) ([]*member, error) {
	if root == "" && w.o.Default != "" {
		root = w.o.Default
	}
	if root == "" || root == AllRoots {
		return w.members, nil
	}
	if m, ok := w.byName[root]; ok {
		return []*member{m}, nil
	}
	if filepath.IsAbs(root) {
		var best *member
		for _, m := range w.members {
			if within(m.e.Layout.Root, root) && (best == nil || len(m.e.Layout.Root) > len(best.e.Layout.Root)) {
				best = m
			}
		}
		if best != nil {
			return []*member{best}, nil
		}
	}
	return nil, usagef("no root %q: the roots are %s (or give an absolute path inside one)", root, strings.Join(w.Names(), ", "))
}

// one is pick for operations on a single root: with several roots, the
// request must name one.
func (w *Workspace) one(root, op string) (*member, error) {
	ms, err := w.pick(root)
	if err != nil {
		return nil, err
	}
	if len(ms) > 1 {
		return nil, usagef("%s needs a root: one of %s", op, strings.Join(w.Names(), ", "))
	}
	return ms[0], nil
}

func within(root, p string) bool {
	rel, err := filepath.Rel(root, filepath.Clean(p))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// each runs f for every member of ms, at most Parallel at once, and
// returns when all have returned. The bound is per request, not shared:
// a slow root (a huge generation opening) then holds up only the requests
// that wait for it, never those of other roots. (A bound shared over all
// requests did not lower the peak RSS of 20 roots under load either: that
// is the query caches, see README.) One member runs on the caller's
// goroutine: a goroutine per request would wake an idle thread (on another
// CPU) for nothing but the hand-over.
func (w *Workspace) each(ms []*member, f func(i int, m *member)) {
	if len(ms) == 1 {
		f(0, ms[0])
		return
	}
	sem := make(chan struct{}, w.o.Parallel)
	var wg sync.WaitGroup
	for i, m := range ms {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			f(i, m)
		})
	}
	wg.Wait()
}

// use runs f with m's API, opening it when closed; while f runs the API
// is never closed as idle.
func (m *member) use(f func(*API)) {
	m.mu.Lock()
	if m.api == nil {
		m.api = New(m.e, m.o)
	}
	a := m.api
	m.users++
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		m.users--
		m.last = time.Now()
		m.mu.Unlock()
	}()
	f(a)
}

// open reports whether m's API (its generation, cache, sources check) is
// open.
func (m *member) open() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.api != nil
}

// closeIfIdle closes m's API when no request uses it and the last one
// ended at least idle before now (always when force).
func (m *member) closeIfIdle(now time.Time, idle time.Duration, force bool) bool {
	m.mu.Lock()
	a := m.api
	if a == nil || !force && (m.users > 0 || now.Sub(m.last) < idle) {
		m.mu.Unlock()
		return false
	}
	m.api = nil
	m.mu.Unlock()
	_ = a.Close()
	return true
}

// reap closes idle roots, checking every quarter of IdleClose.
func (w *Workspace) reap() {
	t := time.NewTicker(max(w.o.IdleClose/4, 10*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case now := <-t.C:
			closed := false
			for _, m := range w.members {
				closed = m.closeIfIdle(now, w.o.IdleClose, false) || closed
			}
			if closed {
				// The Go runtime returns freed memory to the system only
				// gradually; an idle server should shrink now.
				debug.FreeOSMemory()
			}
		}
	}
}

// OpenRoots are the names of the roots whose generation is open now.
func (w *Workspace) OpenRoots() []string {
	var out []string
	for _, m := range w.members {
		if m.open() {
			out = append(out, m.name)
		}
	}
	return slices.Clip(out)
}

// errNoRoots is what a request over zero answering roots reports when
// there is no first error to give (never, with at least one member).
var errNoRoots = fmt.Errorf("no root answered")
