package main

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/envelope"
	"github.com/autorag/autorag/watch"
)

// watchOptions are the flags of watch.
type watchOptions struct {
	debounce, reconcile, poll, idle, grace time.Duration
	once                                   bool
}

func newWatchCmd(g *globals) *cobra.Command {
	wo := &watchOptions{}
	cmd := &cobra.Command{
		Use:   "watch",
		Short: "Keep the index fresh: file events and a periodic reconcile, each tick a refresh",
		Long: `Keep the index fresh until SIGINT or SIGTERM. A full refresh first; then file
events refresh only the changed paths (debounced), a full walk runs every
--reconcile as a safety net, and segments are compacted after --compact-idle
of quiet. Busy ticks (another process holds the lock) are retried, never
lost. One line per tick; with --json one JSON object per line. Exit 0 when
stopped by a signal, busy ticks included.`,
		Args: cobra.NoArgs,
		RunE: wrapRun(func(cmd *cobra.Command, args []string) error {
			return runWatch(cmd, g, *wo)
		}),
	}
	f := cmd.Flags()
	f.DurationVar(&wo.debounce, "debounce", watch.DefaultDebounce, "quiet time after the last event before a refresh")
	f.DurationVar(&wo.reconcile, "reconcile", watch.DefaultReconcile, "period of the full walk (0 = never)")
	f.DurationVar(&wo.poll, "poll", 0, "poll with a full walk this often instead of file events (NFS, FUSE)")
	f.DurationVar(&wo.idle, "compact-idle", watch.DefaultIdle, "compact segments after this long without changes (0 = never)")
	f.DurationVar(&wo.grace, "grace", watch.DefaultGrace, "on a signal, how long to let the refresh in flight finish before abandoning it")
	f.BoolVar(&wo.once, "once", false, "run one refresh and exit 0, even when busy")
	g.settings.addIndexFlags(f)
	return cmd
}

func runWatch(cmd *cobra.Command, g *globals, wo watchOptions) error {
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"debounce", wo.debounce}, {"reconcile", wo.reconcile}, {"poll", wo.poll}, {"compact-idle", wo.idle}, {"grace", wo.grace}} {
		if d.v < 0 {
			return usagef("--%s %s: must not be negative", d.name, d.v)
		}
	}
	e, err := g.engine()
	if err != nil {
		return err
	}
	svc := engine.NewService(e, 1<<20)
	defer svc.Close()
	up := newBackgroundUpgrader(g, e, func(s string) { fmt.Fprintf(g.stderr, "autorag: %s\n", s) })
	defer up.stop()
	return watch.Run(cmd.Context(), svc, watch.Options{
		Debounce:  wo.debounce,
		Reconcile: never(wo.reconcile),
		Poll:      wo.poll,
		Idle:      never(wo.idle),
		Grace:     wo.grace,
		Once:      wo.once,
		Command:   commandLine(),
		OnReady:   func(r watch.Ready) { printReady(g, r, wo); up.poke() },
		OnTick:    func(t watch.Tick) { printTick(g, t); up.poke() },
		OnNotice:  func(s string) { fmt.Fprintf(g.stderr, "autorag: %s\n", s) },
	})
}

// never maps the flag's 0 ("never") to the watch package's negative.
func never(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}

// printReady prints the start line: on stdout for people, on stderr with
// --json (stdout holds only tick objects).
func printReady(g *globals, r watch.Ready, wo watchOptions) {
	if g.quiet {
		return
	}
	w := g.stdout
	if g.json {
		w = g.stderr
	}
	if r.Mode == "poll" {
		fmt.Fprintf(w, "watching %s by polling; Ctrl-C to stop\n", r.Root)
		return
	}
	fmt.Fprintf(w, "watching %s: %d directories, debounce %s, reconcile %s; Ctrl-C to stop\n",
		r.Root, r.Dirs, wo.debounce, wo.reconcile)
}

// tickLine is one tick as --json prints it.
type tickLine struct {
	Tick    int    `json:"tick"`
	Trigger string `json:"trigger"`
	Outcome string `json:"outcome"`
	Paths   int    `json:"paths"`
	// Changed names the paths an event tick refreshed (Paths counts them).
	Changed []string              `json:"changed,omitempty"`
	TookMS  float64               `json:"took_ms"`
	Refresh any                   `json:"refresh,omitempty"` // the refresh envelope, or the busy/error one
	Compact *engine.CompactResult `json:"compact,omitempty"`
}

func printTick(g *globals, t watch.Tick) {
	if t.Refresh != nil {
		for _, w := range t.Refresh.Warnings {
			fmt.Fprintf(g.stderr, "autorag: warning: %s\n", w)
		}
	}
	if g.json {
		writeJSON(g.stdout, toLine(t))
		return
	}
	if g.quiet && t.Err == nil {
		return
	}
	printTickText(g.stdout, t)
}

func toLine(t watch.Tick) tickLine {
	l := tickLine{Tick: t.N, Trigger: t.Trigger, Outcome: t.Outcome, Paths: len(t.Paths), Changed: t.Paths,
		TookMS: t.TookMS, Compact: t.Compact}
	switch {
	case t.Err != nil && t.Trigger != watch.TriggerIdle:
		_, name := classify(t.Err)
		l.Refresh = envelope.NewErrorCode(t.Err, name)
	case t.Refresh != nil:
		l.Refresh = envelope.NewRefresh(t.Refresh)
	}
	return l
}

func printTickText(w io.Writer, t watch.Tick) {
	head := fmt.Sprintf("tick %d %s", t.N, t.Trigger)
	if t.Trigger == watch.TriggerEvent {
		noun := "paths"
		if len(t.Paths) == 1 {
			noun = "path"
		}
		head += fmt.Sprintf(" (%d %s)", len(t.Paths), noun)
	}
	switch {
	case t.Outcome == watch.OutcomeBusy:
		fmt.Fprintf(w, "%s: busy: %v; retrying\n", head, t.Err)
	case t.Err != nil:
		fmt.Fprintf(w, "%s: %s: %v\n", head, t.Outcome, t.Err)
	case t.Compact != nil && t.Outcome == engine.OutcomeCompacted:
		c := t.Compact
		fmt.Fprintf(w, "%s: compacted into generation %s, %d -> %d segments, %d of %d chunks reclaimed (%.1f ms)\n",
			head, c.Generation, c.SegmentsBefore, c.SegmentsAfter, c.DeletedBefore, c.DocsBefore, t.TookMS)
	case t.Compact != nil:
		c := t.Compact
		fmt.Fprintf(w, "%s: not compacted, %d segments hold %d deleted of %d chunks (%.1f ms)\n",
			head, c.SegmentsBefore, c.DeletedBefore, c.DocsBefore, t.TookMS)
	case t.Refresh != nil:
		fmt.Fprintf(w, "%s: ", head)
		printRefresh(w, t.Refresh, false)
	}
}
