package syntax

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrUnsupported is the error of Parse for a language it does not read.
var ErrUnsupported = errors.New("language not supported")

// MaxBytes is the largest source Parse reads; a larger one is an error
// (minified bundles, generated tables: the line heuristic serves them).
const MaxBytes = 2 << 20

// Parse budgets: inside the module the parse and the walk stop after
// budget(len(src)); the host kills the instance if the call itself runs past
// twice that plus killSlack (a loop the budget cannot see).
// The budget is wall-clock time and generous: on a loaded machine a parse
// runs at a fraction of its speed (BenchmarkParse), and a file that falls
// back to the line heuristic is chunked differently.
const (
	baseBudget = time.Second
	perMiB     = 10 * time.Second
	killSlack  = time.Second
)

// budgetFor is budget, replaced by tests.
var budgetFor = budget

func budget(n int) time.Duration { return baseBudget + time.Duration(int64(perMiB)*int64(n)>>20) }

// Parse returns the definitions of src in language lang (a name from
// Languages), in source order, each with its Parent. An unsupported lang
// returns ErrUnsupported; a parse that exceeds the per-file time or memory
// limits or fails returns an error (callers fall back to a line heuristic).
// The module starts on the first call (Warm); calls may run concurrently.
func Parse(ctx context.Context, lang string, src []byte) ([]Def, error) {
	if _, ok := lookup(lang); !ok {
		return nil, fmt.Errorf("parse %q: %w", lang, ErrUnsupported)
	}
	if len(src) > MaxBytes {
		return nil, fmt.Errorf("parse %s: %d bytes, more than the %d the parser reads", lang, len(src), MaxBytes)
	}
	e, err := theEngine(ctx)
	if err != nil {
		return nil, err
	}
	p := thePool()
	in, err := p.get(ctx, e)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", lang, err)
	}
	recs, kinds, err := parseIn(ctx, in, lang, src)
	// A status error leaves the instance sound; any other (a trap, the
	// module closed at the deadline, memory) may not.
	p.put(ctx, in, err != nil && !errors.Is(err, errStatus))
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", lang, err)
	}
	return defs(src, recs, kinds)
}

// parseIn runs one parse in instance in, under the host's deadline.
func parseIn(ctx context.Context, in *instance, lang string, src []byte) ([]record, []string, error) {
	idx, ok := in.langs[lang]
	if !ok {
		return nil, nil, fmt.Errorf("module lacks the %s grammar", lang)
	}
	kinds, err := in.rules(ctx, idx, lang)
	if err != nil {
		return nil, nil, err
	}
	b := budgetFor(len(src))
	cctx, cancel := context.WithTimeout(ctx, 2*b+killSlack)
	defer cancel()
	recs, err := in.parse(cctx, idx, src, uint32(b.Microseconds()))
	return recs, kinds, err
}
