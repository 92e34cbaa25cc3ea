package main

import (
	"strings"
	"testing"
	"time"
)

func TestReportMarkdown(t *testing.T) {
	r := &report{
		Machine: machineInfo{CPU: "Test CPU", Cores: 2},
		Command: "go run ./bench/harness -quick",
		Runs:    5,
		Floors:  []result{{Name: "floor S", Summary: summary{N: 4, Median: time.Millisecond, P10: time.Millisecond, P90: 2 * time.Millisecond, PeakRSSKB: 2048}}},
		Targets: []targetReport{
			{
				Target: target{Title: "Generated corpus, 400 docs", Selective: "zorblax00000", Broad: broadQuery, Origin: "generated"},
				Stats:  treeStats{Files: 400, Bytes: 2 << 20},
				Results: []result{
					{Name: "no-op refresh", Summary: summary{N: 4, Median: 12 * time.Millisecond}, Notes: "unchanged ×4",
						Stages: []stageMedian{{"scan", 6.14}, {"build", 0.31}}},
					{Name: "index rebuild", Err: "run 1: exit 3: disk | full"},
				},
			},
			{Target: target{Title: "Real tree: docs"}, Err: "/x is not a directory"},
		},
	}
	md := r.Markdown()
	for _, want := range []string{
		"| CPU | Test CPU |",
		"| floor S | 4 | 1.00 ms | 1.00 ms–2.00 ms | 2.0 MB |  |",
		"## Generated corpus, 400 docs",
		"400 files, 2.0 MiB",
		"| no-op refresh | 4 | 12.0 ms | 0.00 ms–0.00 ms | — | unchanged ×4; scan 6.1, build 0.31 ms |",
		"`rsswrap`",
		"| index rebuild | — | **failed** | — | — | run 1: exit 3: disk \\| full |",
		"Not measured: /x is not a directory",
		"go run ./bench/harness -quick\n```",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q\n%s", want, md)
		}
	}
	if !r.failed() {
		t.Error("failed() = false with a failed scenario")
	}
	if strings.Contains(md, "-only") || strings.Contains(md, "inflated") {
		t.Errorf("report mentions -only or inflated RSS without cause\n%s", md)
	}

	r.Only = "no-op|cached"
	r.WrapErr = "go build rsswrap: exit status 1"
	md = r.Markdown()
	for _, want := range []string{"`-only no-op|cached`", "**Peak RSS is inflated in this run**", "go build rsswrap: exit status 1"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q\n%s", want, md)
		}
	}
}
