package main

import (
	"fmt"

	"github.com/autorag/autorag/agentapi"
	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/envelope"
)

// printBudgeted writes the passages of env that fit maxTokens as the
// markdown format prints them (long ones trimmed to their best lines):
// json is then the servers' search answer (results with trimmed and
// shown_lines, plus max_tokens, tokens, left_out and token_encoding).
func printBudgeted(g *globals, format string, env *envelope.Query, maxTokens int) {
	a := agentapi.AnswerOf("", env)
	a.Roots = nil // one root, unnamed: the answer of `autorag query`
	a.Fit(maxTokens)
	w := g.stdout
	switch format {
	case formatJSON:
		writeJSON(w, a)
	case formatJSONL:
		for _, h := range a.Results {
			writeJSON(w, h)
		}
	case formatMarkdown:
		fmt.Fprint(w, agentapi.Markdown(a))
	default:
		results := make([]engine.Result, len(a.Results))
		for i, h := range a.Results {
			results[i] = h.Result
		}
		if format == formatFiles {
			printFiles(w, results)
			return
		}
		printResults(w, env.Query, results, styleFor(g))
		if !g.quiet {
			fmt.Fprintf(g.stderr, "autorag: %d of %d tokens (%s, an estimate for other models); %d results did not fit\n",
				a.Tokens, maxTokens, a.Encoding, a.LeftOut)
		}
	}
}
