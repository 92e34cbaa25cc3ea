package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/internal/plural"
)

// refreshFlags are the flags refresh and index rebuild share.
type refreshFlags struct {
	ro        engine.RefreshOptions
	progress  string
	paths     []string // --paths, each one path (never split)
	pathsFrom string   // --paths-from FILE or -
	noWait    bool     // --no-wait: return after a staged refresh's first commit
}

func (f *refreshFlags) add(cmd *cobra.Command, g *globals) {
	cmd.Flags().DurationVar(&f.ro.Wait, "wait", 0, "wait up to this long for the refresh lock instead of failing at once")
	cmd.Flags().StringVar(&f.progress, "progress", progressAuto, "progress line on stderr: auto (only on a terminal), always or never")
	g.settings.addIndexFlags(cmd.Flags())
}

func newRefreshCmd(g *globals) *cobra.Command {
	f := &refreshFlags{}
	cmd := &cobra.Command{
		Use:   "refresh [PATH...]",
		Short: "Bring the index up to date with the folder (skips all work when nothing changed)",
		Long: `Bring the index up to date with the folder. Files whose size and mtime are
unchanged are not read; changed files are hashed (BLAKE3) and only those whose
content changed are re-indexed. When the corpus fingerprint is unchanged no
index work is done. Exit 1 (busy) when another process holds the refresh lock.

With PATH arguments, --paths P (repeatable, one path each: commas are part
of the name) or --paths-from FILE (- for stdin; NUL-separated if it holds a
NUL, as from "git diff -z --name-only", else one path a line), only those
files and directories are refreshed, without walking the tree. Relative
paths are relative to the working directory.`,
		Args: cobra.ArbitraryArgs,
		RunE: wrapRun(func(cmd *cobra.Command, args []string) error {
			paths, err := targetPaths(cmd, f, args, g.stdin)
			if err != nil {
				return err
			}
			f.ro.Paths = paths
			return runRefresh(cmd, g, *f)
		}),
	}
	cmd.Flags().StringArrayVar(&f.paths, "paths", nil, "refresh only this path (file or directory; repeat the flag for more), without walking the tree")
	cmd.Flags().StringVar(&f.pathsFrom, "paths-from", "", "refresh only the paths listed in this file (- for stdin), NUL- or newline-separated")
	cmd.Flags().BoolVar(&f.noWait, "no-wait", false, "with a slow embedder, return once the first generation (built-in vectors) is searchable; the embedding upgrade is left for `autorag upgrade`, the next refresh or watch")
	f.add(cmd, g)
	return cmd
}

// runRefresh runs refresh and index rebuild: f holds what their flags set.
func runRefresh(cmd *cobra.Command, g *globals, f refreshFlags) error {
	show, err := wantProgress(f.progress, g)
	if err != nil {
		return err
	}
	e, err := g.engine()
	if err != nil {
		return err
	}
	ro := f.ro
	ro.Command = commandLine()
	if ro.Paths, err = absPaths(ro.Paths); err != nil {
		return err
	}
	var line *progressLine
	if show {
		line = newProgressLine(g.stderr)
		ro.Progress = line
	}
	_, serr := os.Stat(e.Layout.SidecarPath())
	if sc, err := fingerprint.ReadSidecar(e.Layout.SidecarPath()); err == nil && !g.quiet {
		if msg := switchMessage(e, sc); msg != "" {
			fmt.Fprintf(g.stderr, "autorag: %s\n", msg)
		}
	}
	env, err := refreshStaged(cmd.Context(), g, e, ro, f.noWait, line) // closes line: what follows starts on a clean line
	if err != nil {
		return err
	}
	res := env.RefreshResult
	for _, w := range res.Warnings {
		fmt.Fprintf(g.stderr, "autorag: warning: %s\n", w)
	}
	if g.json {
		writeJSON(g.stdout, env)
		return nil
	}
	if !g.quiet {
		printRefresh(g.stdout, res, g.verbose)
		if errors.Is(serr, fs.ErrNotExist) {
			// Said once, so that indexing the wrong folder is noticed.
			fmt.Fprintf(g.stdout, "  new index at %s\n", e.Layout.Dir)
		}
	}
	return nil
}

func printRefresh(w io.Writer, r *engine.RefreshResult, verbose bool) {
	fmt.Fprintf(w, "%s: generation %s, %s, %s (%s)\n", r.Outcome, r.Generation,
		plural.Count(r.Files, "file"), plural.Count(r.Chunks, "chunk"), tookText(r.TookMS))
	if r.Outcome != engine.OutcomeUnchanged {
		fmt.Fprintf(w, "  %d added, %d modified, %d deleted, %d renamed; %s / %s indexed\n",
			r.Added, r.Modified, r.Deleted, r.Renamed, plural.Count(r.FilesIndexed, "file"), plural.Count(r.ChunksIndexed, "chunk"))
		if r.Size != nil {
			fmt.Fprintf(w, "  %s\n", sizeShort(r.Size))
		}
	}
	if verbose {
		fmt.Fprintf(w, "  scanned %d, stat-skipped %d, hashed %d, parsed %d\n", r.Scanned, r.StatSkipped, r.Hashed, r.Parsed)
	}
	if r.OCRPages > 0 {
		fmt.Fprintf(w, "  OCR read %s of scanned PDFs\n", plural.Count(r.OCRPages, "page"))
	}
	for _, f := range r.Failures {
		if f.Indexed {
			fmt.Fprintf(w, "  note %s: %s\n", f.Path, f.Reason)
			continue
		}
		fmt.Fprintf(w, "  skipped %s: %s\n", f.Path, f.Reason)
	}
}

// absPaths resolves --paths against the working directory, as a shell
// user means them (the engine takes relative paths as relative to the root).
func absPaths(paths []string) ([]string, error) {
	if paths == nil {
		return nil, nil
	}
	out := make([]string, len(paths))
	for i, p := range paths {
		a, err := filepath.Abs(p)
		if err != nil {
			return nil, usagef("--paths %s: %w", p, err)
		}
		out[i] = a
	}
	return out, nil
}
