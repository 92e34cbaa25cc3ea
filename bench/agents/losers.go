package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/autorag/autorag/agentapi"
)

// loss is one question that a merge ranked worse than its root alone:
// the other roots' hits placed above its first relevant file, and the
// weight the merge gave each root.
type loss struct {
	root, merge string
	q           string
	alone, got  int // rank of the first relevant file (0: not in the top 10)
	weights     []agentapi.RootAnswer
	above       []agentapi.Hit // other roots' hits ranked above it
}

// losers are the questions of l that merged ranks worse than alone (both
// in l.queries order).
func losers(l *labelled, merge string, alone, merged []asked) []loss {
	var out []loss
	for i, m := range merged {
		if m.rr >= alone[i].rr {
			continue
		}
		x := loss{root: l.name, merge: merge, q: m.q.Text, alone: alone[i].firstRank, got: m.firstRank, weights: m.a.Roots}
		for _, h := range m.a.Results {
			if h.Root == l.name && l.judged[m.q.ID][h.Path] > 0 {
				break
			}
			if h.Root != l.name {
				x.above = append(x.above, h)
			}
		}
		out = append(out, x)
	}
	return out
}

// printLosers writes each loss: the question, its rank alone and merged,
// each root's weight, and the other roots' hits above its first relevant
// file with their merged and own scores.
func printLosers(w io.Writer, lost []loss) error {
	for _, x := range lost {
		var ws []string
		for _, r := range x.weights {
			ws = append(ws, fmt.Sprintf("%s %.3f", r.Root, r.Scale))
		}
		if _, err := fmt.Fprintf(w, "\n%s %s: %q: rank %s alone, %s merged; weights %s\n",
			x.merge, x.root, x.q, rankText(x.alone), rankText(x.got), strings.Join(ws, ", ")); err != nil {
			return err
		}
		for _, h := range x.above {
			own := h.Score
			if h.RootScore != nil {
				own = *h.RootScore
			}
			if _, err := fmt.Fprintf(w, "  %2d %s %s  %.4f (own %.4f)\n", h.Rank, h.Root, h.Path, h.Score, own); err != nil {
				return err
			}
		}
	}
	return nil
}

// rankText is a rank, or "-" for none in the top 10.
func rankText(r int) string {
	if r == 0 {
		return "-"
	}
	return fmt.Sprint(r)
}
