package progress

import (
	"math"
	"time"
)

// Clock times the stages of a refresh (RefreshResult.Stages), in
// milliseconds.
type Clock struct {
	Start  time.Time
	last   time.Time
	Stages map[string]float64
}

// NewClock starts a clock now.
func NewClock() *Clock {
	now := time.Now()
	return &Clock{Start: now, last: now, Stages: map[string]float64{}}
}

// Mark ends stage name now: it took the time since the last mark.
func (c *Clock) Mark(name string) {
	now := time.Now()
	c.Stages[name] = ms(now.Sub(c.last))
	c.last = now
}

// Carve moves d of stage from into a stage of its own, name (parse out of
// scan: the scan's workers parse as they read).
func (c *Clock) Carve(from, name string, d time.Duration) {
	part := min(ms(d), c.Stages[from])
	c.Stages[from] = math.Round((c.Stages[from]-part)*1000) / 1000
	c.Stages[name] = part
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
