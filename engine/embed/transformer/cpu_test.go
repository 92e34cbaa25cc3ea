package transformer

import (
	"context"
	"testing"

	"github.com/autorag/autorag/engine/embed/transformer/internal/qgemm"
)

// TestInt8WithoutAVX512 runs the int8 products as a CPU without AVX-512
// runs them (the AVX2 kernel, fastmath's AVX2 and Go code) on the
// reference sentences, and holds them to the float32 products (cosine ≥
// 0.995, TestInt8MatchesFloat's bar). Where the CPU also has AVX-512 VNNI
// it holds them to that kernel's vectors: bit for bit with only qgemm's
// AVX-512 code off (the same integer sums, the same float epilogue, the
// same quantization: a CPU with AVX-512 but not VNNI computes
// ArithmeticInt8 too), and at cosine ≥ 0.995 with fastmath's off too:
// LayerNorm, GELU and the softmax then round differently, which moves
// quantization ranges, and the vectors sit about 0.999 apart, hence
// ArithmeticInt8AVX2.
func TestInt8WithoutAVX512(t *testing.T) {
	defer func(was bool) { int8Products = was }(int8Products)
	int8Products = true
	func() {
		defer withAVX512()()
		if arithmetic() != ArithmeticInt8 && qgemm.Kernel() == "avx512-vnni" {
			t.Errorf("int8 products with AVX-512: arithmetic %d, want %d", arithmetic(), ArithmeticInt8)
		}
	}()
	func() {
		defer setAVX512(false)()
		if arithmetic() != ArithmeticInt8AVX2 {
			t.Errorf("int8 products without AVX-512: arithmetic %d, want %d", arithmetic(), ArithmeticInt8AVX2)
		}
	}()
	if !qgemm.Available() {
		t.Fatalf("no int8 kernel on this CPU (kernel %s): int8 products are float32's fallback only on CPUs without AVX2", qgemm.Kernel())
	}
	ref := readReference(t)
	native := func() string { defer withAVX512()(); return qgemm.Kernel() }()
	for _, m := range ref.Models {
		t.Run(m.Name, func(t *testing.T) {
			f32 := referenceVectors(t, m, false)
			i8 := vectorsWith(t, m, withAVX512)
			qOff := vectorsWith(t, m, qgemmWithoutAVX512)
			allOff := vectorsWith(t, m, func() func() { return setAVX512(false) })
			worst, worstVNNI := 1.0, 1.0
			for i := range m.Cases {
				if cs := cosine(f32[i], allOff[i]); cs < 0.995 {
					t.Errorf("sentence %d: AVX2 int8 products at cosine %.6f from float32, want ≥ 0.995", i, cs)
				} else {
					worst = min(worst, cs)
				}
				if native != "avx512-vnni" {
					continue
				}
				for j := range i8[i] {
					if qOff[i][j] != i8[i][j] {
						t.Fatalf("sentence %d: the AVX2 kernel's vector differs from the VNNI kernel's at %d: %g, %g", i, j, qOff[i][j], i8[i][j])
					}
				}
				cs := cosine(i8[i], allOff[i])
				worstVNNI = min(worstVNNI, cs)
				if cs < 0.995 {
					t.Errorf("sentence %d: without AVX-512, cosine %.7f to the VNNI vectors, want ≥ 0.995", i, cs)
				}
			}
			t.Logf("native kernel %s; without AVX-512: lowest cosine %.6f to float32, %.7f to AVX-512", native, worst, worstVNNI)
		})
	}
}

// vectorsWith runs model m over every reference sentence with int8
// products, loaded and run between set() and the restore it returns.
func vectorsWith(t *testing.T, m referenceModel, set func() (restore func())) [][]float32 {
	t.Helper()
	defer set()()
	seqs := make([][]int32, len(m.Cases))
	for i, c := range m.Cases {
		seqs[i] = c.IDs
	}
	vs, err := loadWith(t, m.Name, m.MaxLen, m.Pooling, true).Run(context.Background(), seqs, nil)
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

// withAVX512 turns on all the AVX-512 code the CPU runs (whatever
// AUTORAG_CPU says).
func withAVX512() (restore func()) { return setAVX512(true) }

// qgemmWithoutAVX512 turns on fastmath's AVX-512 code and off qgemm's.
func qgemmWithoutAVX512() (restore func()) {
	all := setAVX512(true)
	was := qgemm.SetAVX512(false)
	return func() { qgemm.SetAVX512(was); all() }
}
