package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/recorded"
	"github.com/autorag/autorag/envelope"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/upgrade"
)

// upgradeWait is how long a foreground refresh or `autorag upgrade` waits
// for another upgrader of the root (a watch's) to finish: as long as the
// embedding takes; Ctrl-C ends the wait.
const upgradeWait = 7 * 24 * time.Hour

// commitWait is the least the upgrade's commit waits for the refresh
// lock: a watch tick or a server's refresh may hold it for a moment, and
// an upgrade must not be thrown away for that.
const commitWait = 5 * time.Minute

// refreshStaged runs a refresh (package upgrade): staged, it commits a
// first generation at once and then, unless noWait, finishes the upgrade
// and returns the upgraded commit's result with the first's change counts.
func refreshStaged(ctx context.Context, g *globals, e *engine.Engine, ro engine.RefreshOptions, noWait bool, line *progressLine) (*envelope.Refresh, error) {
	if ro.Rebuild {
		res, err := e.Refresh(ctx, ro) // a rebuild is one commit with the embedder it was asked for
		line.Close()
		return refreshEnvelope(e, res, nil), err
	}
	first, plan, err := upgrade.Refresh(ctx, e, ro)
	line.Close()
	if err != nil || !plan.Staged() {
		return refreshEnvelope(e, first, nil), err
	}
	if !g.quiet {
		fmt.Fprintf(g.stderr, "autorag: searchable now: generation %s (%s); embedding with %s follows%s\n", first.Generation,
			shortEmbedder(servedEmbedder(e)), upgrade.ModelName(plan.Target.EmbedderID()), noWaitText(noWait))
	}
	if noWait {
		env := refreshEnvelope(e, first, nil)
		env.Upgrade = upgrade.Status(ctx, e) // counted from the cache: the record has no count yet
		return env, nil
	}
	o, done := upgradeOptions(g, ro.Wait, line != nil)
	final, err := upgrade.Run(ctx, e, o)
	done()
	if err != nil || final == nil {
		return refreshEnvelope(e, first, nil), err
	}
	return refreshEnvelope(e, merged(first, final), first), nil
}

// refreshEnvelope is the envelope of res: the embedder the committed
// index answers with, the upgrade still due and, for a staged refresh
// that waited, its first commit.
func refreshEnvelope(e *engine.Engine, res, first *engine.RefreshResult) *envelope.Refresh {
	if res == nil {
		return nil
	}
	env := envelope.NewRefresh(res)
	env.Embedder, env.Upgrade = servedEmbedder(e), upgrade.Pending(e)
	if first != nil {
		env.Staged = &envelope.Staged{Generation: first.Generation, TookMS: first.TookMS}
	}
	return env
}

// servedEmbedder is the embedder the committed index of e's root records.
func servedEmbedder(e *engine.Engine) string {
	sc, err := fingerprint.ReadSidecar(e.Layout.SidecarPath())
	if err != nil {
		return ""
	}
	return recorded.Embedder(sc)
}

func noWaitText(noWait bool) string {
	if noWait {
		return " (`autorag upgrade`, any refresh or watch finishes it)"
	}
	return ""
}

// upgradeOptions are the options of an upgrade run from the command line;
// show draws a progress line of the embedding and the commit.
func upgradeOptions(g *globals, wait time.Duration, show bool) (o upgrade.Options, done func()) {
	o = upgrade.Options{Command: commandLine(), Wait: upgradeWait, CommitWait: max(wait, commitWait)}
	done = func() {}
	if show {
		line := newProgressLine(g.stderr)
		o.Progress, done = line, line.Close
	}
	return o, done
}

// merged is the result of a staged refresh: the upgraded commit, with the
// change counts of the first (the upgrade's commit rebuilt with the new
// embedder what the first had changed, and what was edited meanwhile).
func merged(first, final *engine.RefreshResult) *engine.RefreshResult {
	out := *final
	out.Added, out.Modified, out.Deleted, out.Renamed = first.Added, first.Modified, first.Deleted, first.Renamed
	out.Scanned, out.StatSkipped, out.Hashed, out.Parsed = first.Scanned, first.StatSkipped, first.Hashed, first.Parsed
	out.Failed, out.Failures = first.Failed, first.Failures
	out.TookMS = first.TookMS + final.TookMS
	out.Warnings = append(first.Warnings, final.Warnings...)
	return &out
}

func newUpgradeCmd(g *globals) *cobra.Command {
	var progress string
	var wait time.Duration
	cmd := &cobra.Command{
		Use:   "upgrade",
		Short: "Finish embedding the index with the chosen slow embedder (what refresh --no-wait leaves)",
		Long: `Finish a staged embedding: embed every chunk with the embedder the upgrade
targets (the one chosen, else the one recorded in .autorag/upgrade.json), keeping
each finished vector in the embedding cache, then commit the upgraded generation.
Queries keep answering from the committed generation meanwhile. Nothing to do
(exit 0) when no upgrade is due; exit 1 when another upgrader of the root runs
(--wait to wait for it).
watch, serve --watch and mcp --watch run this in the background.`,
		Args: cobra.NoArgs,
		RunE: wrapRun(func(cmd *cobra.Command, args []string) error {
			show, err := wantProgress(progress, g)
			if err != nil {
				return err
			}
			e, err := g.engine()
			if err != nil {
				return err
			}
			o, done := upgradeOptions(g, 0, show)
			o.Wait = wait
			res, err := upgrade.Run(cmd.Context(), e, o)
			done()
			if err != nil {
				return err
			}
			return printUpgrade(g, e, res)
		}),
	}
	cmd.Flags().DurationVar(&wait, "wait", 0, "wait up to this long for another upgrader of the root instead of failing at once")
	cmd.Flags().StringVar(&progress, "progress", progressAuto, "progress line on stderr: auto (only on a terminal), always or never")
	return cmd
}

// printUpgrade prints what `autorag upgrade` did: the commit's envelope,
// or outcome "unchanged" when no upgrade was due.
func printUpgrade(g *globals, e *engine.Engine, res *engine.RefreshResult) error {
	if res == nil {
		if g.json {
			writeJSON(g.stdout, map[string]any{"ok": true, "outcome": engine.OutcomeUnchanged, "embedder": servedEmbedder(e)})
		} else if !g.quiet {
			fmt.Fprintf(g.stdout, "no upgrade due: the index is embedded with %s\n", shortEmbedder(servedEmbedder(e)))
		}
		return nil
	}
	if g.json {
		writeJSON(g.stdout, refreshEnvelope(e, res, nil))
	} else if !g.quiet {
		printRefresh(g.stdout, res, g.verbose)
	}
	return nil
}

// annotateServed says in env which embedder the answering generation
// records and how far a staged embedding is; with --explain, in the
// explanation too.
func annotateServed(e *engine.Engine, env *envelope.Query, explain bool) {
	env.Embedder, env.Upgrade = upgrade.Served(e, env.Generation)
	if !explain || env.Embedder == "" {
		return
	}
	say := "embedder " + shortEmbedder(env.Embedder)
	if env.Upgrade != nil {
		say += "; " + env.Upgrade.String()
	}
	if env.Explain != "" {
		say = env.Explain + "; " + say
	}
	env.Explain = say
}
