package lock

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gofrs/flock"
	"github.com/google/go-cmp/cmp"
)

// flock locks belong to the open file description, so two Acquire calls in
// one process contend just like two processes do.

func TestAcquireCreatesAndRecords(t *testing.T) {
	path := lockPath(t) // its directory does not exist yet
	l, err := Acquire(t.Context(), path, 0, "autorag refresh")
	if err != nil {
		t.Fatalf("Acquire: %v", err)
	}
	got, err := Inspect(path)
	if err != nil {
		t.Fatal(err)
	}
	want := l.Holder()
	if got == nil || !got.Since.Equal(want.Since) {
		t.Fatalf("Inspect = %+v, want %+v", got, want)
	}
	got.Since = want.Since
	if diff := cmp.Diff(want, *got); diff != "" {
		t.Errorf("recorded holder (-want +got):\n%s", diff)
	}
	if want.PID != os.Getpid() || want.Command != "autorag refresh" {
		t.Errorf("holder = %+v, want this process", want)
	}
	if err := l.Release(); err != nil {
		t.Fatalf("Release: %v", err)
	}
	if err := l.Release(); err != nil {
		t.Errorf("second Release: %v", err)
	}
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("lock file after release: %v, %v; want it kept", fi, err)
	}
	if got, err := Inspect(path); got != nil || err != nil {
		t.Errorf("Inspect after release = %+v, %v; want nil, nil", got, err)
	}
}

func TestAcquireBusyInProcess(t *testing.T) {
	path := lockPath(t)
	first, err := Acquire(t.Context(), path, 0, "autorag watch")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Acquire(t.Context(), path, 20*time.Millisecond, "autorag refresh")
	var busy *BusyError
	if !errors.As(err, &busy) || !errors.Is(err, ErrBusy) {
		t.Fatalf("second Acquire err = %v, want *BusyError", err)
	}
	if busy.Holder == nil || busy.Holder.Command != "autorag watch" {
		t.Errorf("busy holder = %+v, want autorag watch", busy.Holder)
	}
	// The losing attempt must not have overwritten the holder record.
	if got, _ := Inspect(path); got == nil || got.Command != "autorag watch" {
		t.Errorf("record after a busy attempt = %+v", got)
	}
	if err := first.Release(); err != nil {
		t.Fatal(err)
	}
	second, err := Acquire(t.Context(), path, 0, "autorag refresh")
	if err != nil {
		t.Fatalf("Acquire after release: %v", err)
	}
	if got, _ := Inspect(path); got == nil || got.Command != "autorag refresh" {
		t.Errorf("record after re-acquire = %+v, want autorag refresh", got)
	}
	_ = second.Release()
}

func TestAcquireReplacesLongerRecord(t *testing.T) {
	path := lockPath(t)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	old := `{"pid":1,"host":"h","command":"` + strings.Repeat("x", 500) + `"}`
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := Acquire(t.Context(), path, 0, "short")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	if got, err := Inspect(path); err != nil || got == nil || got.Command != "short" {
		t.Errorf("Inspect = %+v, %v; want the new, shorter record", got, err)
	}
}

func TestAcquireContextCancelledWhileWaiting(t *testing.T) {
	path := lockPath(t)
	held, err := Acquire(t.Context(), path, 0, "autorag refresh")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := Acquire(ctx, path, time.Hour, "autorag index rebuild")
		done <- err
	}()
	time.Sleep(30 * time.Millisecond) // let it start waiting
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
		if errors.Is(err, ErrBusy) {
			t.Errorf("cancellation reported as busy: %v", err)
		}
	case <-time.After(liveness):
		t.Fatal("Acquire ignored the cancelled context")
	}
}

func TestAcquireContextAlreadyDone(t *testing.T) {
	path := lockPath(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := Acquire(ctx, path, 0, "x"); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file created by a cancelled Acquire: %v", err)
	}
}

func TestInspectMissing(t *testing.T) {
	path := lockPath(t)
	if got, err := Inspect(path); got != nil || err != nil {
		t.Errorf("Inspect(missing) = %+v, %v; want nil, nil", got, err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Inspect created the lock file: %v", err)
	}
}

func TestInspectHeldWithoutRecord(t *testing.T) {
	path := lockPath(t)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	// A holder between taking the lock and writing its record.
	raw := flock.New(path, flock.SetFlag(os.O_CREATE|os.O_RDWR))
	if ok, err := raw.TryLock(); !ok || err != nil {
		t.Fatalf("TryLock: %v, %v", ok, err)
	}
	defer raw.Unlock()
	got, err := Inspect(path)
	if err != nil || got == nil || *got != (Holder{}) {
		t.Errorf("Inspect = %+v, %v; want a zero Holder", got, err)
	}
	_, err = Acquire(t.Context(), path, 0, "x")
	var busy *BusyError
	if !errors.As(err, &busy) || busy.Holder != nil {
		t.Errorf("Acquire err = %#v, want *BusyError with a nil holder", err)
	}
}

func TestInspectDoesNotBlockAcquire(t *testing.T) {
	path := lockPath(t)
	l, err := Acquire(t.Context(), path, 0, "first")
	if err != nil {
		t.Fatal(err)
	}
	_ = l.Release()
	// Inspect leaves no lock behind.
	for range 10 {
		if _, err := Inspect(path); err != nil {
			t.Fatal(err)
		}
	}
	l, err = Acquire(t.Context(), path, 0, "second")
	if err != nil {
		t.Fatalf("Acquire after Inspect: %v", err)
	}
	_ = l.Release()
}

func TestBusyErrorMessage(t *testing.T) {
	since := time.Date(2026, 11, 25, 10, 30, 0, 0, time.UTC)
	tests := []struct {
		name   string
		holder *Holder
		want   string
	}{
		{"unknown", nil, "refresh lock is held by another process"},
		{"empty record", &Holder{}, "refresh lock is held by another process"},
		{"full", &Holder{PID: 42, Host: "box", Since: since, Command: "autorag refresh"},
			`refresh lock is held by another process (pid 42 on box since 2026-11-25T10:30:00Z running "autorag refresh")`},
		{"pid only", &Holder{PID: 7}, "refresh lock is held by another process (pid 7)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := error(&BusyError{Holder: tt.holder})
			if got := err.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
			if !errors.Is(err, ErrBusy) {
				t.Error("errors.Is(err, ErrBusy) = false")
			}
		})
	}
}

// TestAcquireOnDeletedRootFails: the lock's directory is created alone, so
// a lock taken on a root that was deleted fails and leaves it deleted.
func TestAcquireOnDeletedRootFails(t *testing.T) {
	root := filepath.Join(t.TempDir(), "root")
	l, err := Acquire(context.Background(), filepath.Join(root, ".autorag", "refresh.lock"), 0, "test")
	if err == nil {
		l.Release()
		t.Fatal("acquired a lock under a deleted root")
	}
	if _, err := os.Lstat(root); !os.IsNotExist(err) {
		t.Fatalf("the deleted root exists again: %v", err)
	}
}
