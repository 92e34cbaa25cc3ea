package weights

import (
	"fmt"
	"sort"
)

// Tensor is one float32 tensor, row-major.
type Tensor struct {
	Shape []int
	Data  []float32
	// InOut marks a 2-D linear weight stored in × out (ONNX MatMul's
	// layout); otherwise a linear weight is out × in (torch's).
	InOut bool
	// q4, when Data is nil, holds the tensor as Q4_0 blocks (E5S1
	// matrices), dequantized by Floats when the tensor is packed.
	q4 []byte
}

// Floats returns the tensor's values, dequantizing Q4_0 blocks into a new
// slice each call (a matrix is dequantized only while it is packed, so a
// model of 4-bit matrices never holds all of them in float32 at once).
func (t *Tensor) Floats() []float32 {
	if t.Data == nil && t.q4 != nil {
		out := make([]float32, numel(t.Shape))
		DequantQ4(out, t.q4)
		return out
	}
	return t.Data
}

// Set holds a model's tensors by checkpoint name.
type Set map[string]*Tensor

// Get returns the tensor name with the given shape, or an error naming
// what is missing or mis-shaped.
func (s Set) Get(name string, shape ...int) (*Tensor, error) {
	t, ok := s[name]
	if !ok {
		return nil, fmt.Errorf("tensor %s missing", name)
	}
	want := shape
	got := t.Shape
	if t.InOut && len(got) == 2 {
		got = []int{got[1], got[0]}
	}
	if len(want) > 0 && !sameShape(got, want) {
		return nil, fmt.Errorf("tensor %s has shape %v, want %v", name, got, want)
	}
	return t, nil
}

// Names returns the tensor names in order, for error messages and tests.
func (s Set) Names() []string {
	names := make([]string, 0, len(s))
	for n := range s {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func numel(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}
