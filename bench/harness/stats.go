package main

import (
	"math"
	"slices"
	"time"
)

// summary condenses the timed runs of one scenario.
type summary struct {
	N         int
	Median    time.Duration
	P10, P90  time.Duration
	PeakRSSKB int64 // largest max-RSS of any run, in KiB
}

// summarize computes the median, 10th and 90th percentiles of the wall
// times and the peak RSS over all samples.
func summarize(samples []sample) summary {
	if len(samples) == 0 {
		return summary{}
	}
	walls := make([]time.Duration, len(samples))
	var peak int64
	for i, s := range samples {
		walls[i] = s.Wall
		peak = max(peak, s.MaxRSSKB)
	}
	slices.Sort(walls)
	return summary{
		N:         len(samples),
		Median:    quantile(walls, 0.5),
		P10:       quantile(walls, 0.1),
		P90:       quantile(walls, 0.9),
		PeakRSSKB: peak,
	}
}

// quantile returns the q-quantile (0 ≤ q ≤ 1) of sorted values by linear
// interpolation between the closest ranks (the "type 7" definition used by
// R and NumPy), so the 0.5-quantile of an even count is the mean of the two
// middle values.
func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	q = min(max(q, 0), 1)
	pos := q * float64(len(sorted)-1)
	lo := int(pos)
	if lo >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	frac := pos - float64(lo)
	return sorted[lo] + time.Duration(math.Round(frac*float64(sorted[lo+1]-sorted[lo])))
}
