package envelope

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/lock"
)

func TestCode(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want string
	}{
		{&lock.BusyError{}, CodeBusy},
		{fmt.Errorf("refresh: %w", context.Canceled), CodeInterrupted},
		{fmt.Errorf("%w: bad mode", engine.ErrUsage), CodeUsage},
		{fmt.Errorf("query: %w", engine.ErrNoIndex), CodeNoIndex},
		{fmt.Errorf("lock: %w", lock.ErrNotRegular), CodeLockPath},
		{errors.New("disk on fire"), CodeFailed},
	} {
		if got := Code(tt.err); got != tt.want {
			t.Errorf("Code(%v) = %s, want %s", tt.err, got, tt.want)
		}
	}
}

// The refresh envelope keeps the CLI's shape: ok, then the result's
// fields with one outcome; a busy one has only ok, outcome, holder, error.
func TestRefreshShape(t *testing.T) {
	var b bytes.Buffer
	Write(&b, NewRefresh(&engine.RefreshResult{Outcome: engine.OutcomeUpdated, Added: 2, Generation: "000000002"}))
	got := b.String()
	if !strings.HasPrefix(got, `{"ok":true,"outcome":"updated","scanned":0,`) || strings.Count(got, `"outcome"`) != 1 ||
		!strings.Contains(got, `"added":2`) || strings.Contains(got, `"holder"`) || strings.Contains(got, `"error"`) {
		t.Errorf("refresh envelope: %s", got)
	}
	b.Reset()
	Write(&b, Busy(&lock.BusyError{Holder: &lock.Holder{PID: 7, Command: "autorag refresh"}}))
	got = b.String()
	if !strings.HasPrefix(got, `{"ok":false,"outcome":"busy","holder":{"pid":7,`) || strings.Contains(got, `"scanned"`) ||
		!strings.Contains(got, `"error":{"code":"busy"`) {
		t.Errorf("busy envelope: %s", got)
	}
}
