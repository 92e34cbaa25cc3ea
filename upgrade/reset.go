package upgrade

import (
	"errors"
	"io/fs"
	"os"

	"github.com/autorag/autorag/engine"
)

// ErrReset ends an upgrade whose index was removed (index reset) while it
// ran: nothing is committed, the record is dropped, and the next refresh
// follows the settings, as after any reset. It is an engine.ErrNoIndex
// (the CLI's class no_index, exit 2, whose hint says to refresh).
var ErrReset error = resetError{}

type resetError struct{}

func (resetError) Error() string {
	return "the index was reset during the upgrade: nothing was committed (the next refresh follows the settings)"
}

func (resetError) Unwrap() error { return engine.ErrNoIndex }

// errGivenUp ends an upgrade whose record was replaced or removed while it
// ran without the index being reset: another embedder was chosen (Stage),
// or a new upgrade started after a reset and a refresh; that one's
// upgrader does the work. Run then reports no upgrade.
var errGivenUp = errors.New("upgrade given up")

// ours checks that the upgrade rec describes is still the one due at l:
// the index it upgrades is there (ErrReset when not) and the record on
// disk is rec, the same target started at the same time (errGivenUp when
// not). The upgrader checks before each group, before each record write
// and, under the refresh lock, before its commit.
func ours(l engine.Layout, rec *Record) error {
	if _, err := os.Stat(l.SidecarPath()); errors.Is(err, fs.ErrNotExist) {
		return ErrReset
	}
	if r := Read(l); r == nil || r.Target != rec.Target || !r.Started.Equal(rec.Started) {
		return errGivenUp
	}
	return nil
}

// stopped is what Run returns for the error err that ended the upgrade
// rec describes: nil for one given up; for a reset, ErrReset, after
// dropping the record if it is still rec (a write of the upgrader's that
// crossed the reset's removal); else err.
func stopped(l engine.Layout, rec *Record, err error) error {
	switch {
	case errors.Is(err, errGivenUp):
		return nil
	case errors.Is(err, ErrReset):
		if r := Read(l); r != nil && r.Target == rec.Target && r.Started.Equal(rec.Started) {
			if rerr := remove(l); rerr != nil {
				return rerr
			}
		}
	}
	return err
}

// indexed reports whether l's root has a committed index (or one whose
// sidecar cannot be read: the refresh reports it).
func indexed(l engine.Layout) bool {
	_, err := os.Stat(l.SidecarPath())
	return !errors.Is(err, fs.ErrNotExist)
}
