package syntax

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestTooLarge(t *testing.T) {
	_, err := Parse(context.Background(), "python", bytes.Repeat([]byte("x = 1\n"), MaxBytes/6+1))
	if err == nil || errors.Is(err, ErrUnsupported) {
		t.Fatalf("Parse of %d bytes = %v, want a size error", MaxBytes+6, err)
	}
}

// A parse past its budget inside the module is an error, and the instance
// serves the next parse.
func TestBudgetExceeded(t *testing.T) {
	defer func(f func(int) time.Duration) { budgetFor = f }(budgetFor)
	budgetFor = func(int) time.Duration { return time.Microsecond }
	src := []byte(strings.Repeat("def f(a, b):\n    return [a + b for a in range(10)]\n", 20000))
	if _, err := Parse(context.Background(), "python", src); !errors.Is(err, errTimeout) {
		t.Fatalf("Parse with a 1µs budget = %v, want errTimeout", err)
	}
	budgetFor = budget
	ds, err := Parse(context.Background(), "python", src[:100])
	if err != nil || len(ds) == 0 {
		t.Fatalf("next Parse = %v, %v", ds, err)
	}
}

// The host's deadline closes the module mid-parse: the call fails, the
// instance is dropped, and the next Parse gets a fresh one.
func TestHostDeadlineKills(t *testing.T) {
	ctx := context.Background()
	e, err := theEngine(ctx)
	if err != nil {
		t.Fatal(err)
	}
	in, err := newInstance(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	idx := in.langs["python"]
	if _, err := in.rules(ctx, idx, "python"); err != nil {
		t.Fatal(err)
	}
	src := []byte(strings.Repeat("def f(a, b):\n    return [a + b for a in range(10)]\n", 40000))
	cctx, cancel := context.WithTimeout(ctx, 5*time.Millisecond)
	defer cancel()
	if _, err := in.parse(cctx, idx, src, uint32(time.Minute.Microseconds())); err == nil || errors.Is(err, errStatus) {
		t.Fatalf("parse past the host deadline = %v, want the module closed", err)
	}
	if _, err := in.parse(ctx, idx, src[:50], 1e6); err == nil {
		t.Fatal("closed instance parsed again")
	}
	if _, err := Parse(ctx, "python", src[:100]); err != nil {
		t.Fatalf("Parse after a kill: %v", err)
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
