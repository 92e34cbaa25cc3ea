package main

import (
	"fmt"
	"time"
)

// humanDuration is d as people read it: "0.4 s", "12 s", "4 min 10 s",
// "1 h 5 min"; never milliseconds past a second, never 1222120.6 ms.
func humanDuration(d time.Duration) string {
	switch {
	case d < 10*time.Second:
		return fmt.Sprintf("%.1f s", d.Seconds())
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d.Round(time.Second).Seconds()))
	case d < 10*time.Minute:
		d = d.Round(time.Second)
		return fmt.Sprintf("%d min %d s", int(d.Minutes()), int(d.Seconds())%60)
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d.Round(time.Minute).Minutes()))
	}
	d = d.Round(time.Minute)
	return fmt.Sprintf("%d h %d min", int(d.Hours()), int(d.Minutes())%60)
}

// tookText is a duration in milliseconds as people read it: "12.3 ms"
// under a second, humanDuration past it.
func tookText(ms float64) string {
	if ms < 1000 {
		return fmt.Sprintf("%.1f ms", ms)
	}
	return humanDuration(time.Duration(ms * float64(time.Millisecond)))
}
