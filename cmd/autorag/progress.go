package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/autorag/autorag/engine"
)

// Values of --progress.
const (
	progressAuto   = "auto"
	progressAlways = "always"
	progressNever  = "never"
)

// progressRedraw is how often the line is redrawn at most.
const progressRedraw = 100 * time.Millisecond

// wantProgress resolves --progress: auto draws only when stderr is a
// terminal and the output is not --json or --quiet.
func wantProgress(mode string, g *globals) (bool, error) {
	switch mode {
	case progressAuto, "":
		return isTerminal(g.stderr) && !g.quiet && !g.json, nil
	case progressAlways:
		return true, nil
	case progressNever:
		return false, nil
	}
	return false, usagef("unknown --progress %q: use auto, always or never", mode)
}

// progressLine draws a refresh's progress as one line on a terminal: the
// phase, done/total in the phase's unit, the rate and the time left (once
// something is done: no guess before), and what the embedder is doing,
// after a bar (schollz/progressbar, which also draws the spinner of a
// phase of unknown length and clears the line). The engine's calls only
// record; a ticker redraws at most every progressRedraw, so a fast refresh
// costs a few hundred writes and a wait (a 429's Retry-After) shows as
// soon as it starts. Close clears the line.
type progressLine struct {
	w     io.Writer
	width int
	gate  gate // what the bar draws goes through it

	mu     sync.Mutex
	bar    *progressbar.ProgressBar
	phase  string
	unit   string
	total  int
	done   int
	start  time.Time
	detail string
	stop   chan struct{}
	closed chan struct{}
}

var _ engine.Progress = (*progressLine)(nil)

func newProgressLine(w io.Writer) *progressLine {
	p := &progressLine{w: w, width: termWidth(w), stop: make(chan struct{}), closed: make(chan struct{})}
	go p.loop()
	return p
}

// termWidth is the terminal's width in columns, 80 when unknown.
func termWidth(w io.Writer) int {
	if f, ok := w.(interface{ Fd() uintptr }); ok {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return cols
		}
	}
	return 80
}

func (p *progressLine) Phase(name, unit string, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finishLocked()
	p.phase, p.unit, p.total, p.done, p.detail, p.start = name, unit, total, 0, "", time.Now()
	p.gate.w = p.w
	p.bar = progressbar.NewOptions(max(total, -1),
		progressbar.OptionSetWriter(&p.gate),
		progressbar.OptionSetDescription(name),
		progressbar.OptionSetWidth(20),
		progressbar.OptionShowDescriptionAtLineEnd(),
		progressbar.OptionSetPredictTime(false), // guessed before anything is done; see describe
		progressbar.OptionThrottle(0),           // loop throttles
		progressbar.OptionSetSpinnerChangeInterval(0),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionClearOnFinish(),
	)
	p.bar.Describe(p.describe(0)) // every phase shows, however short
}

func (p *progressLine) Add(n int) {
	p.mu.Lock()
	p.done += n
	p.mu.Unlock()
}

func (p *progressLine) Detail(text string) {
	p.mu.Lock()
	p.detail = text
	p.mu.Unlock()
}

// loop redraws the line until Close.
func (p *progressLine) loop() {
	defer close(p.closed)
	t := time.NewTicker(progressRedraw)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.redraw()
		}
	}
}

func (p *progressLine) redraw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar == nil {
		return
	}
	// Describe and Set each draw (Set when the percentage changes): with
	// the gate shut they only update the bar, and one last Describe draws
	// the count and its percentage together.
	d := p.describe(time.Since(p.start))
	p.gate.shut = true
	p.bar.Describe(d)
	if p.total > 0 {
		_ = p.bar.Set(min(p.done, p.total))
	}
	p.gate.shut = false
	p.bar.Describe(d)
}

// gate passes writes to w unless shut.
type gate struct {
	w    io.Writer
	shut bool
}

func (g *gate) Write(b []byte) (int, error) {
	if g.shut {
		return len(b), nil
	}
	return g.w.Write(b)
}

// describe is what follows the bar: "index 120/3243 · 40 files/s · 1m17s
// left · embedding: request 3/16 done, 4 in flight", cut so that the line
// stays one line: the percentage and the bar take barColumns, and on an
// 80-column terminal a count in the ten thousands, the rate and the time
// left still fit ("embed 1500/12000 · 21 chunks/s · 8m20s left"); the
// detail is what is cut.
func (p *progressLine) describe(elapsed time.Duration) string {
	d := p.phase
	switch {
	case p.total > 0 && p.done > 0 && elapsed > 0:
		d += fmt.Sprintf(" %d/%d", p.done, p.total) // the rate names the unit
	case p.total >= 0:
		d += fmt.Sprintf(" %d/%d %s", p.done, p.total, p.unit)
	}
	if p.total > 0 && p.done > 0 && elapsed > 0 {
		rate := float64(p.done) / elapsed.Seconds()
		d += fmt.Sprintf(" · %s %s/s", fmtRate(rate), p.unit)
		if p.done < p.total {
			left := time.Duration(float64(p.total-p.done) / rate * float64(time.Second))
			d += " · " + left.Round(time.Second).String() + " left"
		}
	}
	if p.detail != "" {
		d += " · " + p.detail
	}
	return clip(d, max(p.width-barColumns-1, 20)) // clip adds "…"
}

// barColumns is what the line takes besides the description: "  25% |",
// the bar of 20, "|  ", a space after the description and the last column
// (left free, so that the terminal does not wrap).
const barColumns = 7 + 20 + 3 + 2

func fmtRate(r float64) string {
	if r >= 10 {
		return fmt.Sprintf("%.0f", r)
	}
	return fmt.Sprintf("%.1f", r)
}

// finishLocked clears the current phase's line.
func (p *progressLine) finishLocked() {
	if p.bar != nil {
		_ = p.bar.Exit()
		_ = p.bar.Clear()
		p.bar = nil
	}
}

// Close stops redrawing and clears the line, so that what is printed next
// starts on a clean line.
func (p *progressLine) Close() {
	close(p.stop)
	<-p.closed
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finishLocked()
}
