package tab

import (
	"math"
	"testing"
)

func TestBuildOpenRoundTrip(t *testing.T) {
	vocab := []byte("any vocabulary bytes")
	rows := [][]float32{{1, -0.5, 0.25}, {0, 0, 0}, {-2, 2, 1e-3}}
	b, err := Build(vocab, rows, 3)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := Open(string(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Verify(); err != nil {
		t.Fatal(err)
	}
	if tb.Dims() != 3 || tb.Rows() != 3 || tb.Vocab() != string(vocab) {
		t.Fatalf("dims %d rows %d vocab %q", tb.Dims(), tb.Rows(), tb.Vocab())
	}
	for i, r := range rows {
		scale, q := tb.Row(i)
		var m float64
		for _, v := range r {
			m = max(m, math.Abs(float64(v)))
		}
		for d, v := range r {
			got := float64(scale) * float64(int8(q[d]))
			if math.Abs(got-float64(v)) > m/254+1e-7 {
				t.Errorf("row %d[%d] = %g, want %g within half a step", i, d, got, v)
			}
		}
	}
}

func TestOpenRejectsCorrupt(t *testing.T) {
	b, err := Build([]byte("v"), [][]float32{{1, 2}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		"empty":     "",
		"magic":     "XXXXXXXX" + string(b[8:]),
		"truncated": string(b[:len(b)-1]),
		"extended":  string(b) + "x",
	} {
		if _, err := Open(data); err == nil {
			t.Errorf("%s: Open succeeded", name)
		}
	}
	flipped := []byte(string(b))
	flipped[len(flipped)-1] ^= 1
	tb, err := Open(string(flipped))
	if err != nil {
		t.Fatal(err)
	}
	if tb.Verify() == nil {
		t.Error("Verify accepted a flipped byte")
	}
}

func TestBuildRejects(t *testing.T) {
	if _, err := Build(nil, nil, 3); err == nil {
		t.Error("Build of no rows succeeded")
	}
	if _, err := Build(nil, [][]float32{{1, 2}}, 3); err == nil {
		t.Error("Build of a short row succeeded")
	}
}
