package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/internal/memfault"
)

// searchChecked is search under a fault guard (memfault), followed by a
// check that g's files are still those it committed: a generation's
// segments are mapped, so a file truncated under a reader faults (SIGBUS,
// which would end the process and every other root a server answers for)
// and one rewritten in place (zeroed) answers wrongly without a fault.
// Either way, when Verify confirms that the files no longer match the
// sidecar still naming g, the query fails with that damage (wrapping
// ErrDamaged) rather than with the end of the process or a wrong answer.
// A generation a newer commit collected under the reader is not damage:
// its answer stands.
func (e *Engine) searchChecked(ctx context.Context, g *Generation, o QueryOptions, filter *backend.PathFilter) (*QueryResult, error) {
	var res *QueryResult
	err := memfault.Guard(func() (err error) {
		res, err = e.search(ctx, g, o, filter)
		return err
	})
	faulted := errors.Is(err, memfault.ErrFault)
	if !faulted && e.asCommitted(g.Sidecar) {
		return res, err
	}
	if d := e.damageOfCurrent(g.Sidecar); d != nil {
		return nil, d
	}
	if faulted {
		return nil, fmt.Errorf("generation %s: %w", g.Sidecar.Generation, err)
	}
	return res, err
}

// asCommitted reports whether the local generation sc names still has the
// files it committed (fingerprint.Unchanged: sizes and mtimes, no
// content read). Other backends keep nothing under .autorag to check.
func (e *Engine) asCommitted(sc *fingerprint.Sidecar) bool {
	return backendOf(sc) != BackendLocal || fingerprint.Unchanged(e.Layout.Dir, sc.Artifacts)
}

// damageOfCurrent is damage of sc when the sidecar still names sc's commit
// (nil when a newer commit replaced it, or when every file still matches).
func (e *Engine) damageOfCurrent(sc *fingerprint.Sidecar) error {
	now, err := readCommitted(e.Layout.SidecarPath())
	if err != nil || !sameCommit(now, sc) {
		return nil
	}
	return e.damage(sc)
}

// brokenCommit is a commit a Service found damaged: while the sidecar
// keeps the stamp it had, queries get err at once, without opening the
// generation again or verifying it again.
type brokenCommit struct {
	stamp sidecarStamp
	err   error
}

// condemn records that l's commit is damaged (err, wrapping ErrDamaged):
// l stops being current (closed once its last query ends) and, while the
// sidecar still names that commit, queries fail with err. The stamp is
// taken before the sidecar is read again, as reload does, so a commit
// that replaced l's in the meantime is never the one condemned.
func (s *Service) condemn(l *liveGen, err error) {
	st, serr := statSidecar(s.path)
	sc, rerr := readCommitted(s.path)
	s.mu.Lock()
	var old *liveGen
	if s.cur == l {
		old, s.cur, s.stamp = l, nil, sidecarStamp{}
	}
	if serr == nil && rerr == nil && sameCommit(sc, l.g.Sidecar) {
		s.broken = brokenCommit{stamp: st, err: err}
	}
	s.mu.Unlock()
	if old != nil {
		s.retire(old)
	}
}

// brokenAt returns the damage recorded for the sidecar stamp st (nil when
// none); the caller holds s.mu.
func (s *Service) brokenAt(st sidecarStamp) error {
	if s.broken.err != nil && s.broken.stamp.same(st) {
		return s.broken.err
	}
	return nil
}

// condemnOpen records the damage found when the commit whose sidecar has
// stamp st failed to open.
func (s *Service) condemnOpen(st sidecarStamp, err error) {
	s.mu.Lock()
	s.broken = brokenCommit{stamp: st, err: err}
	s.mu.Unlock()
}
