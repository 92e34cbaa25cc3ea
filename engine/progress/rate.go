package progress

import "time"

// RateWindow is how much recent work Rate measures: long enough to smooth
// the steps of batched embedding, short enough that a slow start (a model
// loading, the first batch's tokenization) stops weighing on the time
// left within seconds.
const RateWindow = 20 * time.Second

// Rate measures how fast a count advances over a moving window, from the
// first unit done: the time before it (a model loading, the chunks being
// counted) is not work done slowly. The zero value is ready; it is not
// safe for concurrent use.
type Rate struct {
	// Window is the span measured; 0 means RateWindow.
	Window  time.Duration
	samples []sample // oldest first; one may be older than the window
}

type sample struct {
	at   time.Time
	done int
}

// minSpan is the least time a rate is measured over before it is shown.
const minSpan = 500 * time.Millisecond

// Observe records that done units were done at at. Counts that do not
// advance are not recorded, except to end the window.
func (r *Rate) Observe(at time.Time, done int) {
	if len(r.samples) > 0 && done <= r.samples[len(r.samples)-1].done {
		return
	}
	if len(r.samples) == 0 && done <= 0 {
		return
	}
	r.samples = append(r.samples, sample{at, done})
	w := r.Window
	if w <= 0 {
		w = RateWindow
	}
	// Keep one sample at or before the window's start: the window's
	// anchor.
	cut := 0
	for cut+1 < len(r.samples) && at.Sub(r.samples[cut+1].at) >= w {
		cut++
	}
	r.samples = r.samples[cut:]
}

// PerSecond is the rate over the window up to now, counting the time since
// the last advance (a stall slows it); 0 while less than half a second of
// work has been measured.
func (r *Rate) PerSecond(now time.Time) float64 {
	if len(r.samples) < 2 {
		return 0
	}
	first, last := r.samples[0], r.samples[len(r.samples)-1]
	span := now.Sub(first.at)
	if span < minSpan || last.done <= first.done {
		return 0
	}
	return float64(last.done-first.done) / span.Seconds()
}

// Left is the time the remaining units take at the measured rate; false
// when no rate is measured yet.
func (r *Rate) Left(now time.Time, remaining int) (time.Duration, bool) {
	per := r.PerSecond(now)
	if per <= 0 {
		return 0, false
	}
	return time.Duration(float64(remaining) / per * float64(time.Second)), true
}
