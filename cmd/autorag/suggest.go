package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// cobraError turns an error of cobra's own parsing into a usage error
// that says, instead of the whole usage text, what was probably meant and
// where the flags are listed.
func cobraError(cmd *cobra.Command, err error) error {
	msg := strings.TrimSpace(err.Error())
	if head, names, ok := strings.Cut(msg, "\n\nDid you mean this?\n"); ok {
		// cobra's suggestion of a command, on one line
		msg = fmt.Sprintf("%s (did you mean %s?)", head, strings.Join(strings.Fields(names), " or "))
	}
	if name, ok := strings.CutPrefix(msg, "unknown flag: --"); ok {
		if s := closestFlag(cmd, name); s != "" {
			msg += fmt.Sprintf(" (did you mean --%s?)", s)
		}
	}
	if cmd != nil {
		msg += fmt.Sprintf("; see `%s --help`", cmd.CommandPath())
	}
	return &usageError{err: &parseError{msg: msg, err: err}}
}

// parseError is cobra's error err told as msg.
type parseError struct {
	msg string
	err error
}

func (p *parseError) Error() string { return p.msg }
func (p *parseError) Unwrap() error { return p.err }

// closestFlag is the flag of cmd nearest to name by edit distance (at most
// a third of its length, at least 2), or "" when none is near.
func closestFlag(cmd *cobra.Command, name string) string {
	if cmd == nil {
		return ""
	}
	best, bestD := "", max(2, len(name)/3)+1
	visit := func(f *pflag.Flag) {
		if d := editDistance(name, f.Name); d < bestD || d == bestD && f.Name < best {
			best, bestD = f.Name, d
		}
	}
	cmd.Flags().VisitAll(visit)
	cmd.InheritedFlags().VisitAll(visit)
	return best
}

// editDistance is the Damerau-Levenshtein distance (optimal string
// alignment) of a and b: a swap of two neighbours counts one.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
