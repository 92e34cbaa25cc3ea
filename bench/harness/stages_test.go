package main

import (
	"slices"
	"testing"
)

func TestMedianStages(t *testing.T) {
	if got := medianStages(nil); got != nil {
		t.Errorf("no runs: %v, want nil", got)
	}
	runs := []map[string]float64{
		{"gc": 0.1, "scan": 6, "build": 12, "commit": 1, "zeta": 3},
		{"gc": 0.3, "scan": 7, "build": 13, "commit": 2, "alpha": 1},
		{"gc": 0.2, "scan": 5, "build": 14, "commit": 3},
		{"gc": 0.4, "scan": 8, "build": 11, "commit": 4},
	}
	got := medianStages(runs)
	want := []stageMedian{{"scan", 6.5}, {"build", 12.5}, {"commit", 2.5}, {"gc", 0.25}, {"alpha", 1}, {"zeta", 3}}
	if !slices.Equal(got, want) {
		t.Errorf("medianStages = %v, want %v", got, want)
	}
	if s, w := formatStages(got), "scan 6.5, build 12.5, commit 2.5, gc 0.25, alpha 1.0, zeta 3.0 ms"; s != w {
		t.Errorf("formatStages = %q, want %q", s, w)
	}
	if s, w := formatStages([]stageMedian{{"build", 1234.4}}), "build 1234 ms"; s != w {
		t.Errorf("formatStages = %q, want %q", s, w)
	}
}
