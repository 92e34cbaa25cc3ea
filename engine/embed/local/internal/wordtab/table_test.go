package wordtab

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func synthetic(n, dims int) []Entry {
	r := rand.New(rand.NewPCG(1, 2))
	es := make([]Entry, n)
	for i := range es {
		v := make([]float32, dims)
		for d := range v {
			v[d] = float32(r.NormFloat64())
		}
		es[i] = Entry{Word: fmt.Sprintf("w%dé", i), Rank: 2*i + 1, Vec: v}
	}
	return es
}

func TestBuildOpenLookup(t *testing.T) {
	for _, m := range []PCMethod{PCMean, PCEig} {
		es := synthetic(1000, 8)
		b, err := Build(es, 8, m)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := Open(string(b))
		if err != nil {
			t.Fatal(err)
		}
		if err := tab.Verify(); err != nil {
			t.Fatal(err)
		}
		if tab.Rows() != len(es) || tab.Dims() != 8 || tab.OOVNorm() <= 0 {
			t.Fatalf("rows %d dims %d oov norm %g", tab.Rows(), tab.Dims(), tab.OOVNorm())
		}
		off := tab.First()
		for i, e := range es {
			got, ok := tab.Lookup([]byte(e.Word))
			if !ok || got != off {
				t.Fatalf("Lookup(%q) = %d, %v; record %d is at %d", e.Word, got, ok, i, off)
			}
			code, scale, q := tab.Vector(off)
			if code != RankCode(e.Rank) {
				t.Fatalf("%q: rank code %d, want %d", e.Word, code, RankCode(e.Rank))
			}
			for d, x := range e.Vec {
				if diff := math.Abs(float64(scale*float32(int8(q[d])) - x)); diff > float64(scale)/2+1e-6 {
					t.Fatalf("%q[%d]: dequantized off by %g (scale %g)", e.Word, d, diff, scale)
				}
			}
			off = tab.Next(off)
		}
		if off != tab.End() {
			t.Fatalf("walk ended at %d, want %d", off, tab.End())
		}
		for _, w := range []string{"", "w", "w1", "nope", "w1000é"} {
			if _, ok := tab.Lookup([]byte(w)); ok {
				t.Errorf("Lookup(%q) found a word that is not there", w)
			}
		}
		comp := make([]float32, 8)
		for i := range Schemes() {
			tab.Component(i, comp)
			var n float64
			for _, x := range comp {
				n += float64(x) * float64(x)
			}
			if math.Abs(n-1) > 1e-4 {
				t.Errorf("component %d has squared norm %g", i, n)
			}
		}
	}
}

func TestCorruption(t *testing.T) {
	b, err := Build(synthetic(100, 4), 4, PCMean)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]func([]byte) []byte{
		"magic":     func(b []byte) []byte { b[0] = 'x'; return b },
		"truncated": func(b []byte) []byte { return b[:len(b)-1] },
		"version":   func(b []byte) []byte { b[8] = 9; return b },
	}
	for name, f := range cases {
		if _, err := Open(string(f(append([]byte(nil), b...)))); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: Open error %v, want ErrCorrupt", name, err)
		}
	}
	flipped := append([]byte(nil), b...)
	flipped[len(flipped)-1] ^= 1
	tab, err := Open(string(flipped))
	if err != nil {
		t.Fatal(err)
	}
	if err := tab.Verify(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Verify of a flipped byte: %v, want ErrCorrupt", err)
	}
}

func TestBuildRejects(t *testing.T) {
	es := synthetic(3, 4)
	es[2].Word = es[0].Word
	if _, err := Build(es, 4, PCMean); err == nil {
		t.Error("duplicate word accepted")
	}
	if _, err := Build(synthetic(3, 5), 4, PCMean); err == nil {
		t.Error("wrong dims accepted")
	}
	if _, err := Build(nil, 4, PCMean); err == nil {
		t.Error("empty table accepted")
	}
}

func TestWeights(t *testing.T) {
	if OOVCode() <= RankCode(100000) || RankCode(1) != 0 || RankCode(0) != 0 {
		t.Fatalf("rank codes: oov %d, 100000 %d, 1 %d", OOVCode(), RankCode(100000), RankCode(1))
	}
	for _, s := range Schemes() {
		w := s.Weights()
		for c := 1; c < len(w); c++ {
			if w[c] < w[c-1] {
				t.Fatalf("%s: weight falls from code %d to %d", s.Name, c-1, c)
			}
		}
		if s.Kind != Flat && !(w[0] < w[RankCode(10000)]/5) {
			t.Errorf("%s: the most frequent word weighs %g, a rank-10000 word %g", s.Name, w[0], w[RankCode(10000)])
		}
		if SchemeIndex(s.Name) < 0 {
			t.Errorf("SchemeIndex(%q) < 0", s.Name)
		}
	}
	if SchemeIndex("nope") != -1 {
		t.Error("SchemeIndex of an unknown name")
	}
}
