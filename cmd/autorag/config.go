package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/embed/openai"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/internal/secreturl"
)

func newConfigCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Print every effective setting and where it came from (flag, env, config.toml, default)",
		Long: `Print every effective setting and where it came from. Precedence: a flag, then
the environment (AUTORAG_*), then .autorag/config.toml, then the built-in
default. The flags given here are applied as they would be for refresh or query,
so "autorag config --chunk-size 800" shows what that refresh would use.`,
		Args: cobra.NoArgs,
		RunE: wrapRun(func(cmd *cobra.Command, args []string) error {
			return runConfig(g)
		}),
	}
	g.settings.addIndexFlags(cmd.Flags())
	g.settings.addSearchFlags(cmd.Flags())
	return cmd
}

// configEnvelope is the JSON `autorag config` prints.
type configEnvelope struct {
	OK         bool           `json:"ok"`
	Outcome    string         `json:"outcome"`
	Root       settingValue   `json:"root"`
	ConfigFile string         `json:"config_file"`
	ConfigSeen bool           `json:"config_file_exists"`
	Settings   []settingValue `json:"settings"`
}

func runConfig(g *globals) error {
	root, from, err := g.resolveRootFrom()
	if err != nil {
		return err
	}
	l, err := engine.NewLayout(root)
	if err != nil {
		return err
	}
	vals, err := g.settings.values(l.ConfigPath())
	if err != nil {
		return err
	}
	// Resolving checks the values as a refresh would (and builds the
	// embedder, which makes no request).
	if _, err := g.settings.resolve(l.ConfigPath()); err != nil {
		return err
	}
	for _, v := range vals {
		if v.Key == "embedder" && v.Value == "openai" {
			vals = append(vals, openaiValues()...)
		}
	}
	vals = append(vals, envValue("query_cache_bytes", "AUTORAG_QUERY_CACHE_BYTES", "67108864"))
	for i, v := range vals {
		if strings.Contains(v.Value, "://") {
			vals[i].Value = secreturl.Redact(v.Value)
		}
	}
	if sc, err := fingerprint.ReadSidecar(l.SidecarPath()); err == nil {
		// What the committed index was built with, a learned vector size
		// included: queries use it, and a refresh with other index
		// settings rebuilds.
		vals = append(vals, settingValue{Key: "indexed_embedder", Value: sc.Settings["embedder"], Source: sourceIndex, From: l.SidecarPath()})
		vals = followIndex(vals, sc.Settings["embedder"], l.SidecarPath())
	}
	_, serr := os.Stat(l.ConfigPath())
	env := configEnvelope{OK: true, Outcome: "ok", ConfigFile: l.ConfigPath(), ConfigSeen: serr == nil, Settings: vals,
		Root: settingValue{Key: "root", Value: root, Source: rootSource(from), From: from}}
	if g.json {
		writeJSON(g.stdout, env)
		return nil
	}
	printConfig(g.stdout, env)
	return nil
}

// followIndex shows the embedder and model the index records where no
// setting chose them: what query and refresh use (embeddernote.go).
func followIndex(vals []settingValue, recorded, sidecar string) []settingValue {
	rs, ok := parseRecorded(recorded)
	if !ok || chosen(vals, "embedder") || chosen(vals, "model") {
		return vals
	}
	for i, v := range vals {
		switch v.Key {
		case "embedder":
			vals[i] = settingValue{Key: v.Key, Value: rs.embedder, Source: sourceIndex, From: sidecar}
		case "model":
			if rs.embedder == "transformer" {
				vals[i] = settingValue{Key: v.Key, Value: rs.model, Source: sourceIndex, From: sidecar}
			}
		}
	}
	return vals
}

func rootSource(from string) string {
	switch from {
	case "--root":
		return sourceFlag
	case "AUTORAG_ROOT":
		return sourceEnv
	}
	return sourceDefault
}

// openaiValues are the OPENAI_* variables the openai embedder reads; the
// API key is shown only as set or not.
func openaiValues() []settingValue {
	key := envValue("openai_api_key", openai.EnvAPIKey, "")
	if key.Value != "" {
		key.Value = "(set)"
	}
	return []settingValue{
		envValue("openai_base_url", openai.EnvBaseURL, openai.DefaultBaseURL),
		key,
		envValue("openai_embedding_model", openai.EnvModel, openai.DefaultModel),
		envValue("openai_embedding_dimensions", openai.EnvDimensions, "(known size of the model, else learned from the provider)"),
		envValue("openai_embedding_batch_size", openai.EnvBatchSize, fmt.Sprint(openai.DefaultBatchSize)),
		envValue("openai_embedding_concurrency", openai.EnvConcurrency, fmt.Sprint(openai.DefaultConcurrency)),
		envValue("openai_embedding_timeout", openai.EnvTimeout, openai.DefaultTimeout.String()),
	}
}

// envValue is a setting only the environment sets.
func envValue(key, env, def string) settingValue {
	if v := os.Getenv(env); v != "" {
		return settingValue{Key: key, Value: v, Source: sourceEnv, From: env}
	}
	return settingValue{Key: key, Value: def, Source: sourceDefault}
}

func printConfig(w io.Writer, env configEnvelope) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	line := func(v settingValue) {
		val := v.Value
		if val == "" {
			val = "(unset)"
		}
		src := v.Source
		if v.From != "" {
			src += " " + v.From
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", v.Key, val, src)
	}
	line(env.Root)
	present := "present"
	if !env.ConfigSeen {
		present = "absent"
	}
	fmt.Fprintf(tw, "config_file\t%s\t%s\n", env.ConfigFile, present)
	for _, v := range env.Settings {
		line(v)
	}
	tw.Flush()
}
