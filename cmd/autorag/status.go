package main

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/envelope"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/upgrade"
)

func newStatusCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Show the committed index, the refresh that committed it, the lock holder and whether sources changed since",
		Args:  cobra.NoArgs,
		RunE: wrapRun(func(cmd *cobra.Command, args []string) error {
			e, err := g.engine()
			if err != nil {
				return err
			}
			st, err := e.Status(cmd.Context())
			if errors.Is(err, engine.ErrNoIndex) && st != nil && st.LockHolder != nil && !g.json {
				// no index yet: still say who holds the lock
				fmt.Fprintf(g.stderr, "refresh in progress by pid %d (%s)\n", st.LockHolder.PID, st.LockHolder.Command)
			}
			if err != nil {
				return err
			}
			up := upgrade.Status(cmd.Context(), e)
			if g.json {
				env := envelope.NewStatus(st)
				env.Upgrade = up
				writeJSON(g.stdout, env)
				return nil
			}
			note := ""
			if sc, err := fingerprint.ReadSidecar(e.Layout.SidecarPath()); err == nil {
				note = g.embedderNote(e, sc)
			}
			printStatus(g, st, note, up)
			return nil
		}),
	}
}

// without is list without s.
func without(list []string, s string) []string {
	var out []string
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

// printStatus prints st; note is the embedder note (embeddernote.go), up
// the staged embedding due.
func printStatus(g *globals, st *engine.Status, note string, up *upgrade.Progress) {
	w := g.stdout
	fmt.Fprintf(w, "root:        %s\n", st.Root)
	fmt.Fprintf(w, "generation:  %s\n", st.Generation)
	fmt.Fprintf(w, "fingerprint: %s\n", st.Fingerprint)
	fmt.Fprintf(w, "files:       %d, chunks %d, tokens %d\n", st.Counts.Files, st.Counts.Chunks, st.Counts.Tokens)
	if r := st.LastRefresh; r != nil {
		// The sidecar records the refresh that committed this generation,
		// timed up to its commit (a refresh goes on to collect garbage, and
		// one that found nothing changed commits nothing): "last commit".
		fmt.Fprintf(w, "last commit: %s at %s (%s to commit; %d added, %d modified, %d deleted, %d renamed, %d failed)\n",
			r.Outcome, r.At.Local().Format("2006-01-02 15:04:05"), tookText(r.TookMS), r.Added, r.Modified, r.Deleted, r.Renamed, r.Failed)
	}
	if st.SourcesChanged != nil && *st.SourcesChanged {
		fmt.Fprintln(w, "sources:     changed since the last refresh (run `autorag refresh`)")
	} else {
		fmt.Fprintln(w, "sources:     unchanged")
	}
	if st.Size != nil {
		fmt.Fprintf(w, "size:        %s\n", sizeText(st.Size))
	}
	if st.Embedder != "" {
		fmt.Fprintf(w, "embedder:    %s\n", shortEmbedder(st.Embedder))
	}
	if up != nil {
		fmt.Fprintf(w, "embedding:   %s (staged: `autorag upgrade`, refresh or watch finishes it)\n", up.Counts())
	}
	if note != "" {
		fmt.Fprintf(w, "note:        %s\n", note)
	}
	if other := without(st.SettingsChanged, "embedder"); len(other) > 0 {
		fmt.Fprintf(w, "settings:    %s: set otherwise than the index was built with (`autorag refresh` rebuilds with them)\n", strings.Join(other, ", "))
	}
	if h := st.LockHolder; h != nil {
		fmt.Fprintf(w, "lock:        held by pid %d on %s since %s (%s)\n", h.PID, h.Host, h.Since.Local().Format("15:04:05"), h.Command)
	} else {
		fmt.Fprintln(w, "lock:        free")
	}
	if g.verbose {
		keys := make([]string, 0, len(st.Settings))
		for k := range st.Settings {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(w, "setting:     %s = %s\n", k, st.Settings[k])
		}
	}
}
