package main

import (
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/autorag/autorag/agentapi"
	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/envelope"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/querycache"
)

type queryOptions struct {
	k          int
	perFile    int
	paths      []string
	mode       string
	explain    bool
	noCache    bool
	noCollapse bool
	format     string
	filters    []string
	docType    string
	maxTokens  int
}

func newQueryCmd(g *globals) *cobra.Command {
	o := &queryOptions{}
	cmd := &cobra.Command{
		Use:   "query TEXT",
		Short: "Search the index; results on stdout (--json for scripts)",
		Args:  cobra.MinimumNArgs(1),
		RunE: wrapRun(func(cmd *cobra.Command, args []string) error {
			return runQuery(cmd, g, o, strings.Join(args, " "))
		}),
	}
	cmd.Flags().IntVarP(&o.k, "k", "k", 10, "number of results")
	cmd.Flags().IntVar(&o.perFile, "per-file", 1, "results per source file")
	cmd.Flags().StringArrayVar(&o.paths, "path", nil, "only paths matching this `pattern`: a glob (*, ?, **, [...], {a,b}), a directory (its subtree) or a file; without / it matches at any depth; !pattern excludes; repeat for alternatives")
	cmd.Flags().StringVar(&o.mode, "mode", "", "hybrid (default when the index has vectors), bm25 or vector")
	cmd.Flags().BoolVar(&o.noCache, "no-cache", false, "answer from the index even when the query cache holds the answer")
	cmd.Flags().BoolVar(&o.explain, "explain", false, "say how each result's score came about (each list's rank, score and weight)")
	cmd.Flags().StringVar(&o.format, "format", "", "output `format`: text (default), json (same as --json), jsonl (one result per line), files (one path per line) or markdown (a prompt block: each passage under its citation, path:lines or path#page=N)")
	cmd.Flags().IntVar(&o.maxTokens, "max-tokens", 0, "show the best passages that fit about `N` tokens (cl100k count; an estimate for other models), trimming long ones to their best-matching lines")
	g.settings.addSearchFlags(cmd.Flags())
	addFilterFlags(cmd, o)
	cmd.Flags().BoolVar(&o.noCollapse, "no-collapse", false, "list results with the same text (but for white space and version numbers) separately instead of as \"also in\" the best-ranked one")
	return cmd
}

func runQuery(cmd *cobra.Command, g *globals, o *queryOptions, text string) error {
	format, err := queryFormat(o.format, g.json)
	if err != nil {
		return err
	}
	g.json = format == formatJSON // errors too come as an envelope
	if strings.TrimSpace(text) == "" {
		return usagef("empty query: give the words to search for, e.g. autorag query \"retry backoff\"")
	}
	if _, err := agentapi.ResolveK(&o.k); err != nil {
		return err
	}
	if o.perFile < 1 {
		return usagef("--per-file must be at least 1, got %d", o.perFile)
	}
	// 0 is the default, "no budget"; given, the budget must be a positive
	// count (a --max-tokens 0 that printed everything contradicted the
	// message).
	if o.maxTokens < 0 || (o.maxTokens == 0 && cmd.Flags().Changed("max-tokens")) {
		return usagef("--max-tokens must be positive, got %d (leave it out for whole passages)", o.maxTokens)
	}
	start := time.Now()
	e, err := g.engine()
	if err != nil {
		return err
	}
	qo := engine.QueryOptions{Text: text, K: o.k, PerFile: o.perFile, PathGlobs: o.paths, Mode: o.mode, Explain: o.explain,
		NoCollapse: o.noCollapse, Filters: o.filters, Type: o.docType}
	if err := engine.CheckFilters(qo); err != nil {
		return usagef("%v", err)
	}
	capBytes, err := queryCacheCap()
	if err != nil {
		return err
	}
	qc := querycache.Open(e, capBytes)
	var p querycache.Pending
	if !o.noCache {
		var env *envelope.Query
		if env, p = qc.Lookup(qo); env != nil {
			env.Cached, env.TookMS = true, since(start)
			annotateServed(e, env, o.explain)
			printQuery(g, format, env, o.maxTokens)
			g.noteEmbedder(e)
			return nil
		}
	}
	res, err := e.QueryAt(cmd.Context(), p.Sidecar, qo)
	if err != nil {
		return err
	}
	env := envelope.NewQuery(text, o.k, res)
	if !o.noCache && env.RerankError == "" { // a reranker that failed may answer the next time
		qc.Keep(p, env)
	}
	env.TookMS = since(start)
	annotateServed(e, env, o.explain)
	printQuery(g, format, env, o.maxTokens)
	g.noteEmbedder(e)
	return nil
}

// noteEmbedder notes, once per generation, a chosen embedder that differs
// from the one the index answers with (embeddernote.go).
func (g *globals) noteEmbedder(e *engine.Engine) {
	if g.quiet || !e.Settings.EmbedderChosen {
		return
	}
	if sc, err := fingerprint.ReadSidecar(e.Layout.SidecarPath()); err == nil {
		noteOnce(g.stderr, e, sc, g.embedderNote(e, sc))
	}
}
