package main

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// Every frame of the progress line shows the percentage of the count it
// shows: the bar never lags the count by a frame.
func TestProgressPercentInStepWithCount(t *testing.T) {
	var buf bytes.Buffer
	p := &progressLine{w: &buf, width: 200, stop: make(chan struct{}), closed: make(chan struct{})}
	p.Phase("embed", "chunks", 94)
	for _, n := range []int{5, 10, 9, 30, 40} {
		p.Add(n)
		p.redraw()
	}
	frame := regexp.MustCompile(`(\d+)% \|[^|]*\|\s+embed (\d+)/94`)
	frames := frame.FindAllStringSubmatch(buf.String(), -1)
	if len(frames) < 5 {
		t.Fatalf("%d frames with a percentage in %q", len(frames), buf.String())
	}
	for _, f := range frames {
		pct, _ := strconv.Atoi(f[1])
		done, _ := strconv.Atoi(f[2])
		if want := done * 100 / 94; pct != want {
			t.Errorf("frame %q: %d%% for %d/94, want %d%%", f[0], pct, done, want)
		}
	}
}

// On an 80-column terminal a long embedding still shows its rate and the
// time left; what the embedder is doing is what gets cut.
func TestProgressRateAndTimeLeftFitIn80Columns(t *testing.T) {
	p := &progressLine{width: 80, phase: "embed", unit: "chunks", total: 12000, done: 1500, detail: "request 3/16 done, 4 in flight"}
	d := p.describe(71 * time.Second)
	for _, want := range []string{"embed 1500/12000", "21 chunks/s", "8m17s left"} {
		if !strings.Contains(d, want) {
			t.Errorf("line %q lacks %q", d, want)
		}
	}
	if n := utf8.RuneCountInString(d) + barColumns; n > 80 {
		t.Errorf("line %q takes %d columns with the bar", d, n)
	}
}
