package scorekey

import (
	"cmp"
	"math"
	"math/rand/v2"
	"testing"
)

// keyCase is a score and the key BestFirst must give it.
type keyCase[F Float] struct {
	score F
	key   uint64
}

// TestBestFirst64 pins the key of a float64 score: the higher score the
// smaller key, both zeros alike, the exact bits fixed.
func TestBestFirst64(t *testing.T) {
	checkKeys(t, []keyCase[float64]{
		{math.Inf(1), 0x000fffffffffffff}, {1, 0x400fffffffffffff}, {0.5, 0x401fffffffffffff},
		{5e-324, 0x7ffffffffffffffe}, {0, 0x7fffffffffffffff}, {math.Copysign(0, -1), 0x7fffffffffffffff},
		{-5e-324, 0x8000000000000001}, {-0.25, 0xbfd0000000000000}, {-1, 0xbff0000000000000},
		{math.Inf(-1), 0xfff0000000000000},
	}, func(r *rand.Rand) float64 { return math.Float64frombits(r.Uint64()) })
}

// TestBestFirst32 pins the key of a float32 score likewise; it fits in
// the low 32 bits.
func TestBestFirst32(t *testing.T) {
	checkKeys(t, []keyCase[float32]{
		{float32(math.Inf(1)), 0x007fffff}, {1, 0x407fffff}, {0.5, 0x40ffffff},
		{math.SmallestNonzeroFloat32, 0x7ffffffe}, {0, 0x7fffffff}, {float32(math.Copysign(0, -1)), 0x7fffffff},
		{-math.SmallestNonzeroFloat32, 0x80000001}, {-0.25, 0xbe800000}, {-1, 0xbf800000},
		{float32(math.Inf(-1)), 0xff800000},
	}, func(r *rand.Rand) float32 { return math.Float32frombits(r.Uint32()) })
}

// checkKeys checks the keys of cases, then that the keys of random pairs
// of scores (any bits but NaN; a quarter of them equal) compare as the
// scores do, reversed.
func checkKeys[F Float](t *testing.T, cases []keyCase[F], random func(*rand.Rand) F) {
	t.Helper()
	for _, c := range cases {
		if got := BestFirst(c.score); got != c.key {
			t.Errorf("BestFirst(%v) = %#x, want %#x", c.score, got, c.key)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		a, b := random(r), random(r)
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
