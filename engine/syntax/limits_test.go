package syntax

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// bigPython is Python source of nearly MaxBytes: the largest Parse reads,
// a parse of a good part of a second.
func bigPython() []byte {
	const line = "def f(a, b):\n    return [a + b for a in range(10)]\n"
	return []byte(strings.Repeat(line, MaxBytes/len(line)))
}

func TestTooLarge(t *testing.T) {
	_, err := Parse(context.Background(), "python", bytes.Repeat([]byte("x = 1\n"), MaxBytes/6+1))
	if err == nil || errors.Is(err, ErrUnsupported) {
		t.Fatalf("Parse of %d bytes = %v, want a size error", MaxBytes+6, err)
	}
}

// A parse past its budget inside the module is an error, and the instance
// serves the next parse.
func TestBudgetExceeded(t *testing.T) {
	defer func(f func(int) uint32) { budgetFor = f }(budgetFor)
	budgetFor = func(int) uint32 { return 1 }
	src := bigPython()
	if _, err := Parse(context.Background(), "python", src); !errors.Is(err, errTimeout) {
		t.Fatalf("Parse with a budget of 1 step = %v, want errTimeout", err)
	}
	budgetFor = budget
	ds, err := Parse(context.Background(), "python", src[:100])
	if err != nil || len(ds) == 0 {
		t.Fatalf("next Parse = %v, %v", ds, err)
	}
}

// A caller whose context ends gets its error at once; the call, cancelled,
// returns and the pool serves again.
func TestContextEnds(t *testing.T) {
	src := bigPython()
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	if _, err := Parse(ctx, "python", src); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Parse past the caller's deadline = %v, want context.DeadlineExceeded", err)
	}
	for thePool().stuck.Load() != 0 {
		time.Sleep(time.Millisecond)
	}
	if _, err := Parse(context.Background(), "python", src[:100]); err != nil {
		t.Fatalf("Parse after a deadline: %v", err)
	}
}

// A call past the backstop is abandoned with errStuck; when it returns it
// gives its instance back and the pool serves again.
func TestBackstop(t *testing.T) {
	defer func(d time.Duration) { backstop = d }(backstop)
	backstop = 0
	src := bigPython()
	if _, err := Parse(context.Background(), "python", src); !errors.Is(err, errStuck) {
		t.Fatalf("Parse past a backstop of 0 = %v, want errStuck", err)
	}
	backstop = time.Minute
	for thePool().stuck.Load() != 0 {
		time.Sleep(time.Millisecond)
	}
	if _, err := Parse(context.Background(), "python", src[:100]); err != nil {
		t.Fatalf("Parse after the backstop: %v", err)
	}
}

// Deep nesting and binary junk end in definitions or an error, never a
// crash, and leave the pool serving.
func TestHostileInputs(t *testing.T) {
	ctx := context.Background()
	inputs := map[string][]byte{
		"nested parens": []byte("x = " + strings.Repeat("(", 5000) + strings.Repeat(")", 5000) + "\n"),
		"nested defs":   nestedDefs(300),
		"binary":        bytes.Repeat([]byte{0, 0xff, 0xfe, 0x80, '\n', '{', '"'}, 3000),
	}
	for name, src := range inputs {
		for _, lang := range Languages() {
			t0 := time.Now()
			ds, err := Parse(ctx, lang, src)
			t.Logf("%s as %s: %v", name, lang, time.Since(t0))
			if err == nil {
				checkSpans(t, src, ds)
			} else {
				t.Logf("%s as %s: %v", name, lang, err)
			}
		}
	}
	if _, err := Parse(ctx, "python", []byte("def f(): pass\n")); err != nil {
		t.Fatalf("Parse after hostile inputs: %v", err)
	}
}

func nestedDefs(depth int) []byte {
	var b strings.Builder
	for i := range depth {
		b.WriteString(strings.Repeat(" ", i) + "def f():\n")
	}
	b.WriteString(strings.Repeat(" ", depth) + "pass\n")
	return []byte(b.String())
}

// A cancelled parse stops at its next step with errCancelled and leaves
// the instance sound: the next parse on it succeeds.
func TestCancelWord(t *testing.T) {
	ctx := context.Background()
	in := readyInstance(t, moduleConfig())
	src := []byte(strings.Repeat("def f(a, b):\n    return [a + b for a in range(10)]\n", 2000))
	in.cancelCall(in.begin())
	if _, _, err := in.parse(ctx, in.langs["python"], src, budget(len(src))); !errors.Is(err, errCancelled) {
		t.Fatalf("cancelled parse = %v, want errCancelled", err)
	}
	n := in.begin()
	in.cancelCall(n - 1) // a late cancel of the parse before: no effect
	ds, _, err := in.parse(ctx, in.langs["python"], src, budget(len(src)))
	if err != nil || len(ds) != 2000 {
		t.Fatalf("next parse = %d definitions, %v", len(ds), err)
	}
}
