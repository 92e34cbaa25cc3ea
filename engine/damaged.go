package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/autorag/autorag/fingerprint"
)

// ErrDamaged reports a committed generation that cannot be opened and
// whose artifacts no longer match the digests of the sidecar that names
// it. A refresh rebuilds it (intact sources are all it needs).
var ErrDamaged = errors.New("the committed index is damaged: run `autorag refresh` to rebuild it")

// damage explains why the local generation sc names failed to open: the
// artifacts that no longer match their digests (nil when every one does,
// and the failure is something else). Only the local backend keeps its
// artifacts under .autorag.
func (e *Engine) damage(sc *fingerprint.Sidecar) error {
	if backendOf(sc) != BackendLocal {
		return nil
	}
	problems, err := fingerprint.Verify(e.Layout.Dir, sc.Artifacts)
	if err != nil || len(problems) == 0 {
		return nil
	}
	var parts []string
	for i, p := range problems {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(problems)-i))
			break
		}
		parts = append(parts, p.Path+": "+p.Reason)
	}
	return fmt.Errorf("%w (generation %s: %s)", ErrDamaged, sc.Generation, strings.Join(parts, "; "))
}

// probeCommitted checks, when a refresh is about to report the committed
// state unchanged, that it can still be served: the local generation is
// opened as a query would (one whose files kept their sizes but not their
// bytes opens badly, or not at all), and a Weaviate alias must still name
// the collection the generation recorded (collections dropped behind the
// index's back). It returns the damage found (wrapping ErrDamaged), so
// that the refresh rebuilds rather than serve it damaged for good; an
// unreachable cluster is an error of its own.
func (e *Engine) probeCommitted(ctx context.Context, sc *fingerprint.Sidecar) error {
	if backendOf(sc) == BackendWeaviate {
		st, err := e.storageFor(sc)
		if err != nil {
			return err
		}
		if err := st.Check(ctx, sc); unavailable(err) {
			return err
		} else if err != nil {
			return fmt.Errorf("%w (generation %s: %v)", ErrDamaged, sc.Generation, err)
		}
		return nil
	}
	g, err := e.OpenGeneration(sc)
	if err == nil {
		return g.Close()
	}
	if d := e.damage(sc); d != nil {
		return d
	}
	return fmt.Errorf("open generation %s: %w", sc.Generation, err)
}
