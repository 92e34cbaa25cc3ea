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

// testLine is a progress line on a terminal of width columns, drawn by
// hand (no ticker).
func testLine(buf *bytes.Buffer, width int) *progressLine {
	return &progressLine{w: buf, width: func() int { return width }, stop: make(chan struct{}), closed: make(chan struct{})}
}

// Every frame of the progress line shows the percentage of the count it
// shows: the bar never lags the count by a frame.
func TestProgressPercentInStepWithCount(t *testing.T) {
	var buf bytes.Buffer
	p := testLine(&buf, 200)
	p.Phase("embed", "chunks", 94)
	for _, n := range []int{5, 10, 9, 30, 40} {
		p.Add(n)
		p.redraw()
	}
	frame := regexp.MustCompile(`(\d+)% \|[^|]*\| embed (\d+)/94`)
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

// slowStart is an embedding whose first chunk took 40 s (a model loading,
// a first batch of long chunks) and then ran at 20 chunks/s for 30 s: the
// rate and time left speak of the last 20 s, not of the whole phase.
func slowStart(p *progressLine) time.Time {
	t0 := time.Now()
	p.phase, p.unit, p.total = "embed", "chunks", 12000
	p.done = 1
	p.rate.Observe(t0.Add(40*time.Second), 1)
	for s := 1; s <= 300; s++ {
		p.done = 1 + 2*s
		p.rate.Observe(t0.Add(40*time.Second+time.Duration(s)*100*time.Millisecond), p.done)
	}
	return t0.Add(70 * time.Second)
}

// The progress line fits every width: a frame never takes the terminal's
// last column, a wide terminal shows the whole detail (no cut at 80
// columns), 80 columns still show the rate and the time left, and a very
// narrow one drops the bar rather than wrap.
func TestProgressFitsAnyWidth(t *testing.T) {
	detail := "model in process on 2 cores · 412/1,353 files indexed"
	for _, width := range []int{12, 30, 47, 60, 80, 120, 200} {
		p := testLine(nil, width)
		now := slowStart(p)
		p.detail = detail
		f := p.frame(now, width)
		if n := utf8.RuneCountInString(f); n > width-1 {
			t.Errorf("width %d: frame %q takes %d columns", width, f, n)
		}
		if width >= 80 {
			for _, want := range []string{"embed 601/12,000 · 20 chunks/s · 9 min 30 s left"} {
				if !strings.Contains(f, want) {
					t.Errorf("width %d: frame %q lacks %q", width, f, want)
				}
			}
		}
		if width >= 160 && !strings.HasSuffix(f, detail) {
			t.Errorf("width %d: frame %q cut the detail", width, f)
		}
		if width < 48 && strings.Contains(f, "|") {
			t.Errorf("width %d: frame %q kept the bar", width, f)
		}
	}
}

// Before half a second of work is measured there is no rate and no time left
// (no guess from the first chunk).
func TestProgressNoGuessBeforeWork(t *testing.T) {
	p := testLine(&bytes.Buffer{}, 200)
	p.Phase("embed", "chunks", 100)
	p.Add(1)
	if f := p.frame(time.Now(), 200); strings.Contains(f, "/s") || strings.Contains(f, "left") {
		t.Errorf("frame %q guesses a rate from one chunk", f)
	}
}

// Close erases the line it drew, and only then.
func TestProgressCloseClears(t *testing.T) {
	var buf bytes.Buffer
	p := testLine(&buf, 100)
	go p.loop()
	p.Phase("scan", "files", -1)
	p.Close()
	if !strings.HasSuffix(buf.String(), "\r      \r") || strings.Contains(buf.String(), "\n") {
		t.Errorf("drawn and closed: %q", buf.String())
	}
	buf.Reset()
	p = testLine(&buf, 100)
	go p.loop()
	p.Close()
	if buf.Len() != 0 {
		t.Errorf("closed without a phase, wrote %q", buf.String())
	}
}
