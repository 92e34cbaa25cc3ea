package watch

import (
	"slices"
	"strings"
	"time"
)

// work is what the next refresh must cover: the paths events named and,
// when set, a full walk (which covers every path).
type work struct {
	paths       map[string]bool
	full        string    // "" or the trigger of the full walk
	first, last time.Time // when the first and the last event arrived
}

func (w *work) empty() bool { return w.full == "" && len(w.paths) == 0 }

// addPath records an event's path at time now.
func (w *work) addPath(p string, now time.Time) {
	if w.paths == nil {
		w.paths = map[string]bool{}
	}
	w.paths[p] = true
	if w.first.IsZero() {
		w.first = now
	}
	w.last = now
}

// addFull asks for a full walk; the first trigger asked for names it.
func (w *work) addFull(trigger string) {
	if w.full == "" {
		w.full = trigger
	}
}

// merge adds what o holds (work that must be retried) to w.
func (w *work) merge(o work) {
	w.addFull(o.full)
	for p := range o.paths {
		w.addPath(p, o.last)
	}
	if !o.first.IsZero() && (w.first.IsZero() || o.first.Before(w.first)) {
		w.first = o.first
	}
}

// trigger names the tick that runs w.
func (w *work) trigger() string {
	if w.full != "" {
		return w.full
	}
	return TriggerEvent
}

// due is when an event tick may start: Debounce after the last event, but
// never later than MaxDelay after the first. A full walk is due at once.
func (w *work) due(debounce, maxDelay time.Duration) time.Time {
	if w.full != "" {
		return time.Time{}
	}
	d := w.last.Add(debounce)
	if m := w.first.Add(maxDelay); m.Before(d) {
		return m
	}
	return d
}

// list returns the paths sorted, without those under another listed path
// (a directory's refresh covers them); "" (the root) covers everything.
func (w *work) list() []string {
	if w.paths[""] {
		return []string{""}
	}
	ps := make([]string, 0, len(w.paths))
	for p := range w.paths {
		if !w.underListed(p) {
			ps = append(ps, p)
		}
	}
	slices.Sort(ps)
	return ps
}

// underListed reports whether an ancestor directory of p is listed.
func (w *work) underListed(p string) bool {
	for i := strings.LastIndexByte(p, '/'); i > 0; i = strings.LastIndexByte(p[:i], '/') {
		if w.paths[p[:i]] {
			return true
		}
	}
	return false
}
