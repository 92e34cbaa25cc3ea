package integrity

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/internal/memfault"
)

// ErrDamaged reports a committed generation whose artifacts no longer
// match the digests of the sidecar that names it. A refresh rebuilds it
// (intact sources are all it needs).
var ErrDamaged = errors.New("the committed index is damaged: run `autorag refresh` to rebuild it")

// Damage returns the artifacts of the local generation sc names, under
// dir (.autorag), that no longer match their digests, as an error wrapping
// ErrDamaged (nil when every one matches). Only the local backend keeps its
// artifacts under .autorag.
func Damage(dir string, sc *fingerprint.Sidecar) error {
	if backend.NameOf(sc) != backend.Local {
		return nil
	}
	problems, err := fingerprint.Verify(dir, sc.Artifacts)
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

// Intact reports whether the local generation sc names still has the
// files it committed (fingerprint.Unchanged: sizes and mtimes, no content
// read). Other backends keep nothing under .autorag to check.
func Intact(dir string, sc *fingerprint.Sidecar) bool {
	return backend.NameOf(sc) != backend.Local || fingerprint.Unchanged(dir, sc.Artifacts)
}

// Current is Damage of sc when the sidecar at sidecarPath still names sc's
// commit: nil when a newer commit replaced it (its generation may be
// collected, which is not damage) or when every file still matches.
func Current(dir, sidecarPath string, sc *fingerprint.Sidecar) error {
	now, err := fingerprint.ReadSidecar(sidecarPath)
	if err != nil || !SameCommit(now, sc) {
		return nil
	}
	return Damage(dir, sc)
}

// SameCommit reports whether two sidecars record the same commit: a reset
// followed by a refresh can reuse a generation name, never a commit time.
func SameCommit(a, b *fingerprint.Sidecar) bool {
	return a.Generation == b.Generation && a.Fingerprint == b.Fingerprint && a.Refresh.At.Equal(b.Refresh.At)
}

// Guarded runs f, which reads the generation sc names, under a fault
// guard. When f faulted, or (check set: a search, whose answer the files
// shape) the files are no longer as committed, it returns the damage
// Current finds; a fault without damage is returned as f's error.
// Otherwise it returns what f returned.
func Guarded[T any](dir, sidecarPath string, sc *fingerprint.Sidecar, check bool, f func() (T, error)) (T, error) {
	var res T
	err := memfault.Guard(func() (err error) {
		res, err = f()
		return err
	})
	faulted := errors.Is(err, memfault.ErrFault)
	if !faulted && (!check || Intact(dir, sc)) {
		return res, err
	}
	var zero T
	if d := Current(dir, sidecarPath, sc); d != nil {
		if faulted {
			return zero, fmt.Errorf("%w; reading it: %v", d, err)
		}
		return zero, d
	}
	if faulted {
		return zero, fmt.Errorf("generation %s: %w", sc.Generation, err)
	}
	return res, err
}

// Verdict remembers the damage found for one version of a sidecar file
// (its os.FileInfo: the sidecar is replaced by rename at every commit).
type Verdict struct {
	mu  sync.Mutex
	fi  os.FileInfo
	err error
}

// Record remembers err as the damage of the sidecar version fi.
func (v *Verdict) Record(fi os.FileInfo, err error) {
	v.mu.Lock()
	v.fi, v.err = fi, err
	v.mu.Unlock()
}

// At returns the damage recorded for the sidecar version fi (nil: none).
func (v *Verdict) At(fi os.FileInfo) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.err == nil || fi == nil || v.fi == nil || !SameVersion(v.fi, fi) {
		return nil
	}
	return v.err
}

// SameVersion reports whether two stats are of one version of a file
// replaced by rename: its device and inode (os.SameFile), size and mtime.
func SameVersion(a, b os.FileInfo) bool {
	return a.Size() == b.Size() && a.ModTime().Equal(b.ModTime()) && os.SameFile(a, b)
}

// Fault is err, from work that read the generation the sidecar at
// sidecarPath names, with the damage Current finds when err is a fault.
func Fault(dir, sidecarPath string, err error) error {
	if !errors.Is(err, memfault.ErrFault) {
		return err
	}
	sc, rerr := fingerprint.ReadSidecar(sidecarPath)
	if rerr != nil {
		return err
	}
	if d := Current(dir, sidecarPath, sc); d != nil {
		return fmt.Errorf("%w; reading it: %v", d, err)
	}
	return err
}
