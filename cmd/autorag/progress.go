package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/progress"
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

// progressLine draws a refresh's progress as one line on a terminal: a
// bar with the percentage (a spinner when the total is not known), the
// phase, done/total in the phase's unit, the rate and the time left, and
// what the embedder is doing. The rate is measured over a moving window
// from the first unit done (progress.Rate), so a slow start stops weighing
// on the time left within seconds. The line fits the terminal's width as
// it is at each redraw (a narrow one loses the bar, then the detail); it
// is drawn over the last with a carriage return and spaces.
// The engine's calls only record; a ticker redraws at most every
// progressRedraw. Close clears the line.
type progressLine struct {
	w     io.Writer
	width func() int // columns, read at every redraw

	mu     sync.Mutex
	phase  string
	unit   string
	total  int
	done   int
	rate   progress.Rate
	detail string
	spin   int
	shown  int // columns the last frame took
	stop   chan struct{}
	closed chan struct{}
}

var _ engine.Progress = (*progressLine)(nil)

func newProgressLine(w io.Writer) *progressLine {
	p := &progressLine{w: w, width: func() int { return termWidth(w) }, stop: make(chan struct{}), closed: make(chan struct{})}
	go p.loop()
	return p
}

// termWidth is the terminal's width in columns: the terminal's own, else
// $COLUMNS, else 80.
func termWidth(w io.Writer) int {
	if f, ok := w.(interface{ Fd() uintptr }); ok {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return cols
		}
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return 80
}

func (p *progressLine) Phase(name, unit string, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.phase, p.unit, p.total, p.done, p.detail = name, unit, total, 0, ""
	p.rate = progress.Rate{}
	p.drawLocked(time.Now()) // every phase shows, however short
}

func (p *progressLine) Add(n int) {
	p.mu.Lock()
	p.done += n
	p.rate.Observe(time.Now(), p.done)
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
	if p.phase != "" {
		p.drawLocked(time.Now())
	}
}

// drawLocked draws the frame over the last one: a carriage return, the
// frame, and spaces over what is left of the last (no escape sequences).
func (p *progressLine) drawLocked(now time.Time) {
	p.spin++
	f := p.frame(now, p.width())
	n := utf8.RuneCountInString(f)
	fmt.Fprintf(p.w, "\r%s%s", f, strings.Repeat(" ", max(p.shown-n, 0)))
	p.shown = n
}

// frame is the line for a terminal of width columns, one column short of
// it (so that the terminal does not wrap): "  25% |█████     | embed
// 750/3,026 · 31 chunks/s · 1 min 13 s left · model in process on 2
// cores". Past what fits, the detail is cut first, then the rest.
func (p *progressLine) frame(now time.Time, width int) string {
	avail := max(width-1, 1)
	var head string
	switch {
	case p.total > 0:
		pct := min(p.done, p.total) * 100 / p.total
		head = fmt.Sprintf("%3d%% ", pct)
		if bar := barWidth(width); bar > 0 {
			fill := bar * min(p.done, p.total) / p.total
			head += "|" + strings.Repeat("█", fill) + strings.Repeat(" ", bar-fill) + "| "
		}
	case p.total < 0:
		head = string(`|/-\`[p.spin%4]) + " "
	}
	main, detail := p.describe(now)
	line := head + main
	if detail != "" {
		line += " · " + detail
	}
	return fitLine(line, avail)
}

// fitLine is l cut to width columns, "…" marking the cut.
func fitLine(l string, width int) string {
	if r := []rune(l); len(r) > width {
		return string(r[:max(width-1, 0)]) + "…"
	}
	return l
}

// barWidth is the bar's width on a terminal of width columns: 20, 10 on a
// narrow one, none on a very narrow one.
func barWidth(width int) int {
	switch {
	case width >= 72:
		return 20
	case width >= 48:
		return 10
	}
	return 0
}

// describe is what follows the bar, in two parts: the phase, done/total,
// the rate and the time left; and the detail.
func (p *progressLine) describe(now time.Time) (main, detail string) {
	main = p.phase
	per := p.rate.PerSecond(now)
	if p.total >= 0 {
		main += " " + thousands(p.done) + "/" + thousands(p.total)
		if p.unit != "" && per == 0 {
			main += " " + p.unit // else the rate names it
		}
	}
	if per > 0 && p.total > 0 {
		main += fmt.Sprintf(" · %s %s/s", fmtRate(per), p.unit)
		if left, ok := p.rate.Left(now, p.total-p.done); ok && p.done < p.total {
			main += " · " + humanDuration(left) + " left"
		}
	}
	return main, p.detail
}

func fmtRate(r float64) string {
	if r >= 9.95 { // what %.1f would round to 10.0
		return fmt.Sprintf("%.0f", r)
	}
	return fmt.Sprintf("%.1f", r)
}

// Close stops redrawing and clears the line, so that what is printed next
// starts on a clean line.
func (p *progressLine) Close() {
	if p == nil {
		return
	}
	close(p.stop)
	<-p.closed
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown > 0 {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.shown))
	}
}
