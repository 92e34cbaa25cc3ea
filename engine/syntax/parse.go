package syntax

import (
	"context"
	"errors"
	"fmt"
)

// ErrUnsupported is the error of Parse for a language it does not read.
var ErrUnsupported = errors.New("language not supported")

// MaxBytes is the largest source Parse reads; a larger one is an error
// (minified bundles, generated tables: the line heuristic serves them).
// The step budget bounds operations, not their cost: in error recovery an
// operation grows dearer with the file (Kotlin's sample repeated whole:
// 17 s of CPU at 512 KiB, almost 5 minutes at 2 MiB), so the cap is what
// keeps a broken file's parse to seconds.
const MaxBytes = 512 << 10

// The parse budget is counted in steps inside the module (glue.c: a step
// is 100 of tree-sitter's parse operations or 100 nodes of the walk), and
// is a function of the source's length only, so that a file parses, or
// falls back to the line heuristic, the same way on an idle machine and on
// a loaded one. The source trees of the code-search dev set spend 3 (Java,
// Lua) to 32 (Scala) steps per KiB, 41 at most in a file over 2 KiB; the
// samples grown to 64 KiB 9 to 20 (TestBudgetMargin): the budget leaves
// about five times the worst. Error recovery spends about as many steps
// per KiB, but each costs several times more.
// A 2 MiB file may spend 411,600 steps.
const (
	baseSteps   = 2000
	stepsPerKiB = 200
)

// budgetFor is budget, replaced by tests.
var budgetFor = budget

func budget(n int) uint32 { return baseSteps + uint32(int64(stepsPerKiB)*int64(n)>>10) }

// Parse returns the definitions of src in language lang (a name from
// Languages), in source order, each with its Parent. An unsupported lang
// returns ErrUnsupported; a parse that exceeds its budget of steps or the
// memory limit, or fails, returns an error (callers fall back to a line
// heuristic), and so does one whose ctx ends first. The module starts on the
// first call (Warm); calls may run concurrently.
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
	recs, kinds, err := thePool().run(ctx, e, lang, src)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", lang, err)
	}
	return defs(src, recs, kinds)
}

// parseIn runs one parse in instance in within the budget of src's length,
// and returns its records, the kind of each rule and the steps it spent.
func parseIn(ctx context.Context, in *instance, lang string, src []byte) ([]record, []string, uint32, error) {
	idx, ok := in.langs[lang]
	if !ok {
		return nil, nil, 0, fmt.Errorf("module lacks the %s grammar", lang)
	}
	kinds, err := in.rules(ctx, idx, lang)
	if err != nil {
		return nil, nil, 0, err
	}
	recs, steps, err := in.parse(ctx, idx, src, budgetFor(len(src)))
	return recs, kinds, steps, err
}
