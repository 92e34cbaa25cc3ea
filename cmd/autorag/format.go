package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/autorag/autorag/agentapi"
	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/envelope"
)

// Output formats of `autorag query --format`.
const (
	formatText     = "text"
	formatJSON     = "json"
	formatJSONL    = "jsonl"
	formatFiles    = "files"
	formatMarkdown = "markdown"
)

// queryFormat resolves --format and its synonym --json.
func queryFormat(format string, asJSON bool) (string, error) {
	switch format {
	case "":
		if asJSON {
			return formatJSON, nil
		}
		return formatText, nil
	case formatText, formatJSONL, formatFiles, formatMarkdown:
		if asJSON {
			return "", usagef("--json asks for --format json, but --format %s was given: pass only one", format)
		}
		return format, nil
	case formatJSON:
		return format, nil
	}
	return "", usagef("unknown --format %q: use text, json, jsonl, files or markdown", format)
}

// textStyle says how the text format prints: colour only on a terminal
// and never when NO_COLOR is set (https://no-color.org).
type textStyle struct {
	color   bool
	verbose bool
}

func styleFor(g *globals) textStyle {
	_, noColor := os.LookupEnv("NO_COLOR")
	return textStyle{color: isTerminal(g.stdout) && !noColor, verbose: g.verbose}
}

// printQuery writes env in the chosen format; with maxTokens, only the
// passages that fit (see printBudgeted).
func printQuery(g *globals, format string, env *envelope.Query, maxTokens int) {
	if env.RerankError != "" && format != formatJSON {
		fmt.Fprintf(g.stderr, "autorag: not reranked, fused order kept: %s\n", env.RerankError)
	}
	if maxTokens > 0 {
		printBudgeted(g, format, env, maxTokens)
		return
	}
	w := g.stdout
	if env.Hint != "" && format != formatJSON {
		fmt.Fprintf(g.stderr, "autorag: hint: %s\n", env.Hint)
	}
	switch format {
	case formatJSON:
		writeJSON(w, env)
	case formatJSONL:
		printJSONL(w, env.Results)
	case formatFiles:
		printFiles(w, env.Results)
	case formatMarkdown:
		fmt.Fprint(w, agentapi.Markdown(agentapi.AnswerOf("", env)))
	default:
		if env.Explain != "" {
			fmt.Fprintf(w, "[%s]\n", env.Explain)
		}
		printResults(w, env.Query, env.Results, styleFor(g))
	}
}

// printJSONL writes one result per line, each the object the json format
// puts in its results list.
func printJSONL(w io.Writer, results []engine.Result) {
	for _, r := range results {
		writeJSON(w, r)
	}
}

// printFiles writes each result's path once, in rank order, for xargs,
// editors and fzf.
func printFiles(w io.Writer, results []engine.Result) {
	seen := map[string]bool{}
	for _, r := range results {
		if !seen[r.Path] {
			seen[r.Path] = true
			fmt.Fprintln(w, r.Path)
		}
	}
}

// printResults is the text format: a line per result, then the lines of
// its passage that hold the most query terms.
func printResults(w io.Writer, query string, results []engine.Result, st textStyle) {
	if len(results) == 0 {
		fmt.Fprintln(w, "no results")
		return
	}
	m := newMatcher(query)
	for _, r := range results {
		fmt.Fprintf(w, "%d. %s", r.Rank, resultLocation(r))
		if r.Section != "" {
			fmt.Fprintf(w, "  § %s", r.Section)
		}
		fmt.Fprintf(w, "  (%.3f)\n", r.Score)
		if r.Explain != "" {
			fmt.Fprintf(w, "   [%s]\n", r.Explain)
		}
		for _, x := range extras(withoutText(r)) {
			fmt.Fprintf(w, "   %s: %s\n", x.name, x.value)
		}
		n, width := 3, 160
		if st.verbose {
			n, width = 1<<20, 1<<20
		}
		lines, skipped := m.bestLines(r.Text, n)
		if skipped {
			fmt.Fprintln(w, "   …")
		}
		for _, l := range lines {
			l = clip(l, width)
			if st.color {
				l = m.highlight(l)
			}
			fmt.Fprintf(w, "   %s\n", l)
		}
	}
}

// shownFields are the result fields the text and markdown formats lay out
// themselves, or leave to scripts (defs: the section already names what a
// code chunk starts with); any other field a result carries is printed by
// extras.
var shownFields = map[string]bool{"rank": true, "path": true, "chunk": true, "lines": true, "section": true,
	"title": true, "score": true, "scores": true, "explain": true, "text": true, "attachment": true, "page": true,
	"defs": true}

type extra struct{ name, value string }

// withoutText is r without its passage, which extras would encode only to
// skip it.
func withoutText(r engine.Result) engine.Result {
	r.Text = ""
	return r
}

// extras lists the fields of r beyond shownFields, by JSON name (see
// extraValue for the values); empty values are left out.
func extras(r any) []extra {
	b, err := json.Marshal(r)
	if err != nil {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	var out []extra
	for k, raw := range m {
		if shownFields[k] {
			continue
		}
		v := extraValue(raw)
		if v == "" || v == "null" || v == `""` || v == "0" || v == "false" {
			continue
		}
		out = append(out, extra{strings.ReplaceAll(k, "_", " "), v})
	}
	slices.SortFunc(out, func(a, b extra) int { return strings.Compare(a.name, b.name) })
	return out
}

// extraValue prints a list of strings joined by commas, a list of
// locations ({"path", "lines", "page"}) as resultLocation does (a PDF's
// by its page) joined by commas, and anything else as its JSON.
func extraValue(raw json.RawMessage) string {
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return strings.Join(list, ", ")
	}
	var locs []struct {
		Path       *string `json:"path"`
		Attachment string  `json:"attachment"`
		Lines      []int   `json:"lines"`
		Page       int     `json:"page"`
	}
	if json.Unmarshal(raw, &locs) != nil || len(locs) == 0 {
		return string(raw)
	}
	parts := make([]string, len(locs))
	for i, l := range locs {
		if l.Path == nil {
			return string(raw)
		}
		r := engine.Result{Path: *l.Path, Attachment: l.Attachment, Page: l.Page}
		if len(l.Lines) == 2 {
			r.Lines = [2]int{l.Lines[0], l.Lines[1]}
		}
		parts[i] = resultLocation(r)
	}
	return strings.Join(parts, ", ")
}
