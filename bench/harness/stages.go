package main

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// stageMedian is the median time of one refresh stage over a scenario's
// measured runs, as the CLI reports it in the envelope's stages_ms.
type stageMedian struct {
	Name string
	MS   float64
}

// stageOrder is the order refresh runs its stages in; others follow by name.
var stageOrder = []string{"scan", "build", "commit", "gc"}

// medianStages takes the median of every stage over the runs that report
// it, in stage order. It returns nil when no run reported stages.
func medianStages(runs []map[string]float64) []stageMedian {
	byStage := make(map[string][]time.Duration)
	for _, r := range runs {
		for name, ms := range r {
			byStage[name] = append(byStage[name], time.Duration(math.Round(ms*float64(time.Millisecond))))
		}
	}
	if len(byStage) == 0 {
		return nil
	}
	names := make([]string, 0, len(byStage))
	for name := range byStage {
		names = append(names, name)
	}
	rank := func(name string) int {
		if i := slices.Index(stageOrder, name); i >= 0 {
			return i
		}
		return len(stageOrder)
	}
	slices.SortFunc(names, func(a, b string) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		return strings.Compare(a, b)
	})
	out := make([]stageMedian, 0, len(names))
	for _, name := range names {
		d := byStage[name]
		slices.Sort(d)
		out = append(out, stageMedian{Name: name, MS: float64(quantile(d, 0.5)) / float64(time.Millisecond)})
	}
	return out
}

// formatStages renders "scan 6.1, build 12.3, commit 0.52, gc 0.08 ms".
func formatStages(stages []stageMedian) string {
	if len(stages) == 0 {
		return ""
	}
	parts := make([]string, len(stages))
	for i, s := range stages {
		var v string
		switch {
		case s.MS >= 100:
			v = fmt.Sprintf("%.0f", s.MS)
		case s.MS >= 1:
			v = fmt.Sprintf("%.1f", s.MS)
		default:
			v = fmt.Sprintf("%.2f", s.MS)
		}
		parts[i] = s.Name + " " + v
	}
	return strings.Join(parts, ", ") + " ms"
}
