package main

import (
	"testing"
	"time"
)

// Durations read as people read them, never in thousands of milliseconds.
func TestHumanDuration(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{400 * time.Millisecond, "0.4 s"}, {12 * time.Second, "12 s"}, {4*time.Minute + 10*time.Second, "4 min 10 s"},
		{1222120600 * time.Microsecond, "20 min"}, {65 * time.Minute, "1 h 5 min"},
	} {
		if got := humanDuration(c.d); got != c.want {
			t.Errorf("humanDuration(%v) = %q, want %q", c.d, got, c.want)
		}
	}
	if got := tookText(1222120.6); got != "20 min" {
		t.Errorf("tookText(1222120.6) = %q, want 20 min", got)
	}
	if got := tookText(630.9); got != "630.9 ms" {
		t.Errorf("tookText(630.9) = %q", got)
	}
}
