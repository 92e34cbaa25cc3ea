package progress

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"
)

// A slow start (40 s to the first unit: a model loading) and a slow first
// stretch (1 unit/s for 10 s) stop weighing on the rate once the window
// has passed them: after 25 s at 20 units/s the rate is 20, where the
// phase's average would say 7.
func TestRateSettlesOverItsWindow(t *testing.T) {
	var r Rate
	t0 := time.Now()
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	done := 1
	r.Observe(at(40), done)
	for s := 41; s <= 50; s++ {
		done++
		r.Observe(at(float64(s)), done)
	}
	for i := 1; i <= 250; i++ {
		done += 2
		r.Observe(at(50+float64(i)/10), done)
	}
	now := at(75)
	if got := r.PerSecond(now); math.Abs(got-20) > 0.5 {
		t.Errorf("rate %.2f after 25 s at 20/s, want 20 (the phase's average: %.1f)", got, float64(done)/75)
	}
	left, ok := r.Left(now, 1200)
	if !ok || left < 59*time.Second || left > 61*time.Second {
		t.Errorf("time left for 1,200 units: %v %v, want 60 s", left, ok)
	}
}

// No rate before half a second of work, nor from a count that does not move;
// a stall slows the rate.
func TestRateNoGuessAndStalls(t *testing.T) {
	var r Rate
	t0 := time.Now()
	r.Observe(t0, 0)
	r.Observe(t0.Add(100*time.Millisecond), 5)
	r.Observe(t0.Add(300*time.Millisecond), 10)
	if got := r.PerSecond(t0.Add(400 * time.Millisecond)); got != 0 {
		t.Errorf("rate %.1f from 0.3 s of work, want none yet", got)
	}
	if _, ok := r.Left(t0.Add(400*time.Millisecond), 10); ok {
		t.Error("time left guessed from 0.3 s of work")
	}
	r.Observe(t0.Add(1100*time.Millisecond), 15)
	fast := r.PerSecond(t0.Add(1100 * time.Millisecond))
	stalled := r.PerSecond(t0.Add(5 * time.Second))
	if fast <= 0 || stalled >= fast/3 {
		t.Errorf("rate %.1f at 1.1 s, %.1f after a 4 s stall; want the stall to slow it", fast, stalled)
	}
}

type recorder struct{ detail string }

func (r *recorder) Phase(string, string, int) {}
func (r *recorder) Add(int)                   {}
func (r *recorder) Detail(d string)           { r.detail = d }

// A model run in process is described by the cores it runs on, never by
// requests in flight; a provider's embedder by its requests.
func TestWatchWordsInProcess(t *testing.T) {
	var rec recorder
	w := NewWatch(&rec)
	w.InProcess(2)
	w.CountChunks(32)
	w.Begin(8)
	w.Requests(1, 3, 8)
	w.Indexed(3)
	if rec.detail != "model in process on 2 cores · 3/32 files indexed" {
		t.Errorf("in-process detail %q", rec.detail)
	}
	remote := NewWatch(&rec)
	remote.Requests(4, 1, 16)
	if !strings.Contains(rec.detail, "4 requests in flight") {
		t.Errorf("remote detail %q", rec.detail)
	}
	_ = remote.Context(context.Background())
}
