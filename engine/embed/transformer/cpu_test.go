package transformer

import (
	"context"
	"testing"

	"github.com/autorag/autorag/engine/embed/transformer/internal/qgemm"
)

// TestInt8WithoutAVX512 runs the int8 products as a CPU without AVX-512
// runs them (the AVX2 kernel on weights in −64…64, fastmath's AVX2 and Go
// code) on the reference sentences, and holds them to the float32 products
// (cosine ≥ 0.995, TestInt8MatchesFloat's bar); so too with only qgemm's
// AVX-512 code off (a CPU with AVX-512 but not VNNI). Where the CPU has
// AVX-512 VNNI it requires cosine ≥ 0.99 between the AVX2 vectors and that
// kernel's (weights in −127…127): two vectors each at 0.995 from the
// float32 one can sit 0.980 apart; measured, the least is 0.993.
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
	func() {
		defer qgemmWithoutAVX512()()
		if arithmetic() != ArithmeticInt8AVX2F16 {
			t.Errorf("int8 products with AVX-512 but not VNNI: arithmetic %d, want %d", arithmetic(), ArithmeticInt8AVX2F16)
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
			worst, worstQ, worstVNNI := 1.0, 1.0, 1.0
			for i := range m.Cases {
				worst = min(worst, checkCosine(t, i, "AVX2 int8 products", f32[i], allOff[i], 0.995))
				worstQ = min(worstQ, checkCosine(t, i, "int8 products without VNNI", f32[i], qOff[i], 0.995))
				if native == "avx512-vnni" {
					worstVNNI = min(worstVNNI, checkCosine(t, i, "AVX2 int8 products (to VNNI's)", i8[i], allOff[i], 0.99))
				}
			}
			t.Logf("native kernel %s; without AVX-512: lowest cosine %.6f to float32, %.6f to AVX-512 VNNI; without VNNI: %.6f to float32", native, worst, worstVNNI, worstQ)
		})
	}
}

// checkCosine fails t when got sits at cosine < bar from want, and
// returns the cosine.
func checkCosine(t *testing.T, i int, what string, want, got []float32, bar float64) float64 {
	t.Helper()
	cs := cosine(want, got)
	if cs < bar {
		t.Errorf("sentence %d: %s at cosine %.6f, want ≥ %g", i, what, cs, bar)
	}
	return cs
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
