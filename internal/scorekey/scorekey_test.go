package scorekey

import (
	"cmp"
	"math"
	"math/rand/v2"
	"testing"
)

// TestBestFirst64 pins the key of a float64 score: the higher score the
// smaller key, both zeros alike, the exact bits fixed.
func TestBestFirst64(t *testing.T) {
	for _, c := range []struct {
		score float64
		key   uint64
	}{
		{math.Inf(1), 0x000fffffffffffff}, {1, 0x400fffffffffffff}, {0.5, 0x401fffffffffffff},
		{5e-324, 0x7ffffffffffffffe}, {0, 0x7fffffffffffffff}, {math.Copysign(0, -1), 0x7fffffffffffffff},
		{-5e-324, 0x8000000000000001}, {-0.25, 0xbfd0000000000000}, {-1, 0xbff0000000000000},
		{math.Inf(-1), 0xfff0000000000000},
	} {
		if got := BestFirst(c.score); got != c.key {
			t.Errorf("BestFirst(%v) = %#016x, want %#016x", c.score, got, c.key)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		a, b := math.Float64frombits(r.Uint64()), math.Float64frombits(r.Uint64())
		if r.IntN(4) == 0 {
			b = a
		}
		if math.IsNaN(a) || math.IsNaN(b) {
			continue
		}
		if got, want := cmp.Compare(BestFirst(a), BestFirst(b)), cmp.Compare(b, a); got != want {
			t.Fatalf("keys of %v and %v compare %d, scores %d", a, b, got, want)
		}
	}
}

// TestBestFirst32 pins the key of a float32 score: the higher score the
// smaller key, both zeros alike, the exact bits fixed.
func TestBestFirst32(t *testing.T) {
	for _, c := range []struct {
		score float32
		key   uint32
	}{
		{float32(math.Inf(1)), 0x007fffff}, {1, 0x407fffff}, {0.5, 0x40ffffff},
		{math.SmallestNonzeroFloat32, 0x7ffffffe}, {0, 0x7fffffff}, {float32(math.Copysign(0, -1)), 0x7fffffff},
		{-math.SmallestNonzeroFloat32, 0x80000001}, {-0.25, 0xbe800000}, {-1, 0xbf800000},
		{float32(math.Inf(-1)), 0xff800000},
	} {
		if got := BestFirst(c.score); got != uint64(c.key) {
			t.Errorf("BestFirst(%v) = %#08x, want %#08x", c.score, got, c.key)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		a, b := math.Float32frombits(r.Uint32()), math.Float32frombits(r.Uint32())
		if r.IntN(4) == 0 {
			b = a
		}
		if a != a || b != b {
			continue
		}
		if got, want := cmp.Compare(BestFirst(a), BestFirst(b)), cmp.Compare(b, a); got != want {
			t.Fatalf("keys of %v and %v compare %d, scores %d", a, b, got, want)
		}
	}
}
