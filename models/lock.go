package models

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
)

// lockName is the lock file of a model's directory: a pull or an add of
// the model holds it while it downloads, installs and writes the stamp,
// so a second one waits and then finds the files installed.
const lockName = ".lock"

func modelLock(md string) *flock.Flock {
	return flock.New(filepath.Join(md, lockName), flock.SetFlag(os.O_CREATE|os.O_RDWR), flock.SetPermissions(0o644))
}

// lockModel takes the lock of model directory md (creating it), waiting
// for another pull or add until ctx ends; waiting, when not nil, is called
// once before a wait. It returns the release.
func lockModel(ctx context.Context, md string, waiting func()) (func(), error) {
	if err := os.MkdirAll(md, 0o755); err != nil {
		return nil, fmt.Errorf("model cache: %w", err)
	}
	fl := modelLock(md)
	ok, err := fl.TryLock()
	if err == nil && !ok {
		if waiting != nil {
			waiting()
		}
		ok, err = fl.TryLockContext(ctx, 50*time.Millisecond)
		if err == nil && !ok {
			err = ctx.Err()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("wait for another pull or add of %s: %w", filepath.Base(md), err)
	}
	return func() { _ = fl.Unlock() }, nil
}

// tryLockModel takes the lock of md only if it is free at once; it
// returns nil when it is not (or cannot be taken: a read-only cache).
func tryLockModel(md string) func() {
	fl := modelLock(md)
	if ok, err := fl.TryLock(); err != nil || !ok {
		return nil
	}
	return func() { _ = fl.Unlock() }
}
