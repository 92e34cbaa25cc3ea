package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/autorag/autorag/cache"
	"github.com/autorag/autorag/engine/integrity"
	"github.com/autorag/autorag/fingerprint"
)

// ErrServiceClosed reports a query on a closed Service.
var ErrServiceClosed = errors.New("query service closed")

// Service answers queries for one root in a long-running process: it keeps
// the open Generation across queries and an in-memory LRU of results keyed
// like the on-disk cache; the sidecar is checked on every query so a
// refresh by another process is noticed at once.
//
// The check is one stat(2): the sidecar is replaced by rename at every
// commit, so a commit changes its file identity (device and inode) as
// well as its mtime. Only when that stamp differs from the one last seen
// is the sidecar read and parsed again: at 1,200 chunks reading and
// parsing it took ~30 µs, the stat ~1 µs and a whole cached answer ~4.5 µs
// (BenchmarkServiceSidecarCheck). A new commit (generation, fingerprint or
// commit time differ) opens the new generation, purges the LRU and closes
// the old generation once the queries still using it finish. The query
// settings that go into the key are read once, by NewService: the engine's
// settings must not change while a service uses it.
type Service struct {
	e        *Engine
	path     string // the sidecar
	lru      *cache.LRU[[32]byte, *QueryResult]
	settings string // QuerySettings, fixed for the service's life

	reloadMu sync.Mutex // serializes reading the sidecar and opening a generation

	mu     sync.Mutex // guards the fields below; never held across I/O
	stamp  sidecarStamp
	cur    *liveGen
	broken integrity.Verdict // the last commit found damaged (condemn)
	epoch  uint64
	closed bool
}

// liveGen is an open generation shared by the queries using it. The
// service holds one reference while the generation is current and every
// query one more; the last release closes it.
type liveGen struct {
	g     *Generation
	epoch uint64 // in the key: an answer added after its generation was replaced is never served
	refs  atomic.Int64
}

func (l *liveGen) acquire() *liveGen { l.refs.Add(1); return l }

func (l *liveGen) release() {
	if l.refs.Add(-1) == 0 {
		_ = l.g.Close()
	}
}

// sidecarStamp identifies one version of the sidecar file without reading
// it: its device and inode (os.SameFile), size and mtime.
type sidecarStamp struct{ fi os.FileInfo }

func (a sidecarStamp) same(b sidecarStamp) bool {
	return a.fi != nil && b.fi != nil && integrity.SameVersion(a.fi, b.fi)
}

// NewService returns a service answering from e's committed index, keeping
// at most capBytes of results in memory. It opens nothing until the first
// query.
func NewService(e *Engine, capBytes int64) *Service {
	return &Service{
		e:        e,
		path:     e.Layout.SidecarPath(),
		lru:      cache.NewLRU[[32]byte, *QueryResult](capBytes, resultSize),
		settings: e.QuerySettings(),
	}
}

// Query answers o, from the LRU when the committed generation already
// answered the same query (the bool reports it), else from the open
// generation. The result is the caller's to keep and modify.
func (s *Service) Query(ctx context.Context, o QueryOptions) (*QueryResult, bool, error) {
	start := time.Now()
	if err := s.e.Layout.CheckRoot(); err != nil {
		return nil, false, err
	}
	l, err := s.current()
	if err != nil {
		return nil, false, err
	}
	defer l.release()
	o, err = s.e.ResolveOptions(l.g.Sidecar, o)
	if err != nil {
		return nil, false, err
	}
	key := s.key(l, o)
	if r, ok := s.lru.Get(key); ok {
		out := cloneResult(r)
		out.TookMS = ms(time.Since(start))
		return out, true, nil
	}
	r, err := s.e.Search(ctx, l.g, o)
	if errors.Is(err, ErrDamaged) {
		s.condemn(l, err)
	}
	if err != nil {
		return nil, false, err
	}
	s.mu.Lock()
	still := s.cur == l
	s.mu.Unlock()
	if still && r.RerankError == "" { // a reranker that failed may answer the next time
		s.lru.Add(key, cloneResult(r))
	}
	r.TookMS = ms(time.Since(start))
	return r, false, nil
}

// key is AnswerKey in the service's namespace and epoch.
func (s *Service) key(l *liveGen, o QueryOptions) [32]byte {
	return AnswerKey(l.g.Sidecar, o, s.settings, "engine.Service", strconv.FormatUint(l.epoch, 10))
}

// current returns the generation the sidecar names, acquired for one query.
func (s *Service) current() (*liveGen, error) {
	st, err := statSidecar(s.path)
	if err != nil {
		return nil, s.dropIfGone(err)
	}
	if l, err := s.acquireIfSeen(st); l != nil || err != nil {
		return l, err
	}
	return s.reload()
}

// acquireIfSeen acquires the current generation when st is the stamp of
// the sidecar it was opened from (or last confirmed against).
func (s *Service) acquireIfSeen(st sidecarStamp) (*liveGen, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrServiceClosed
	}
	if err := s.broken.At(st.fi); err != nil {
		return nil, err
	}
	if s.cur != nil && s.stamp.same(st) {
		return s.cur.acquire(), nil
	}
	return nil, nil
}

// reload reads the sidecar and, when it names a new commit, opens it. A
// generation collected between reading the sidecar and opening it is
// retried once from the new sidecar, as Engine.Query does.
func (s *Service) reload() (*liveGen, error) {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	var lastErr error
	for attempt := 0; attempt < 2; attempt++ {
		// stat before read: the stamp kept is never newer than the content.
		st, err := statSidecar(s.path)
		if err != nil {
			return nil, s.dropIfGone(err)
		}
		// A query that waited for another's reload finds it done.
		if l, err := s.acquireIfSeen(st); l != nil || err != nil {
			return l, err
		}
		sc, err := readCommitted(s.path)
		if err != nil {
			return nil, s.dropIfGone(err)
		}
		if l, ok := s.keep(st, sc); ok {
			return l, nil
		}
		g, err := s.e.OpenGeneration(sc)
		if err != nil {
			lastErr = fmt.Errorf("generation %s: %w", sc.Generation, err)
			if d := integrity.Current(s.e.Layout.Dir, s.path, sc); d != nil {
				lastErr = fmt.Errorf("%w; opening it: %v", d, err)
				s.broken.Record(st.fi, lastErr)
				return nil, lastErr
			}
			continue
		}
		return s.install(st, g)
	}
	return nil, lastErr
}

// keep reports whether sc is the commit already open (the stamp moved but
// the content did not) and, if so, records the stamp and acquires it.
func (s *Service) keep(st sidecarStamp, sc *fingerprint.Sidecar) (*liveGen, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.cur == nil || !integrity.SameCommit(s.cur.g.Sidecar, sc) {
		return nil, false
	}
	s.stamp = st
	return s.cur.acquire(), true
}

// install makes g current, purges the results of the one it replaces and
// releases that one (closed when its last query finishes).
func (s *Service) install(st sidecarStamp, g *Generation) (*liveGen, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		_ = g.Close()
		return nil, ErrServiceClosed
	}
	s.epoch++
	l := &liveGen{g: g, epoch: s.epoch}
	l.refs.Store(2) // the service's and the caller's
	old := s.cur
	s.cur, s.stamp = l, st
	s.mu.Unlock()
	s.retire(old)
	return l, nil
}

// retire purges the cached results and releases old (nil: none), which the
// caller has just replaced as current under s.mu.
func (s *Service) retire(old *liveGen) {
	s.lru.Purge()
	if old != nil {
		old.release()
	}
}

// dropIfGone forgets the current generation when err says the index was
// reset, and returns err.
func (s *Service) dropIfGone(err error) error {
	if !errors.Is(err, ErrNoIndex) {
		return err
	}
	s.mu.Lock()
	old, closed := s.cur, s.closed
	s.cur, s.stamp = nil, sidecarStamp{}
	s.mu.Unlock()
	if old != nil {
		s.retire(old)
	}
	if closed {
		return ErrServiceClosed
	}
	return err
}

// condemn retires l, whose commit Search found damaged (err); queries fail
// with err while the sidecar names it (stat before read, as in reload).
func (s *Service) condemn(l *liveGen, err error) {
	st, serr := statSidecar(s.path)
	if sc, rerr := readCommitted(s.path); serr == nil && rerr == nil && integrity.SameCommit(sc, l.g.Sidecar) {
		s.broken.Record(st.fi, err)
	}
	s.mu.Lock()
	old := s.cur
	if old == l {
		s.cur, s.stamp = nil, sidecarStamp{}
	}
	s.mu.Unlock()
	if old == l {
		s.retire(old)
	}
}

func statSidecar(path string) (sidecarStamp, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return sidecarStamp{}, ErrNoIndex
	}
	if err != nil {
		return sidecarStamp{}, fmt.Errorf("stat sidecar: %w", err)
	}
	return sidecarStamp{fi: fi}, nil
}

// Close releases the open generation (after the queries using it finish)
// and the cached results. Queries after Close fail with ErrServiceClosed.
func (s *Service) Close() error {
	s.mu.Lock()
	old := s.cur
	s.cur, s.closed = nil, true
	s.mu.Unlock()
	s.retire(old)
	return nil
}
