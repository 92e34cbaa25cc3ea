package failpoint

import (
	"errors"
	"testing"
	"time"
)

func TestParseAndHit(t *testing.T) {
	restore := Set("a:error, b:delay=1ms,c")
	defer restore()
	if err := Hit("a"); !errors.Is(err, ErrInjected) {
		t.Errorf("Hit(a) = %v, want ErrInjected", err)
	}
	start := time.Now()
	if err := Hit("b"); err != nil || time.Since(start) < time.Millisecond {
		t.Errorf("Hit(b) = %v after %v, want nil after the delay", err, time.Since(start))
	}
	if err := Hit("unnamed"); err != nil {
		t.Errorf("Hit(unnamed) = %v", err)
	}
	if m, ok := lookup("c"); !ok || m.kind != kill {
		t.Errorf("c parsed as %+v %v, want kill", m, ok)
	}
}

func TestUnsetCostsNothing(t *testing.T) {
	if err := Hit("after-sidecar"); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _ = Hit("after-sidecar") }); n != 0 {
		t.Errorf("Hit allocates %v times when unset", n)
	}
}

// BenchmarkHitUnset is the cost of a failpoint on the commit path when
// AUTORAG_FAILPOINT is unset.
func BenchmarkHitUnset(b *testing.B) {
	for b.Loop() {
		_ = Hit("after-sidecar")
	}
}
