package transformer

import (
	"os"

	"github.com/autorag/autorag/engine/embed/transformer/internal/fastmath"
	"github.com/autorag/autorag/engine/embed/transformer/internal/qgemm"
)

// CPUEnv names the environment variable that makes the embedder compute as
// on a CPU without AVX-512: AUTORAG_CPU=avx2 turns off the AVX-512 code of
// the int8 products (qgemm then runs its AVX2 kernel) and of the vector
// functions (fastmath), for measuring the path of AVX2-only machines on
// one that has AVX-512. It is read once, at start-up; any other value
// leaves the CPU's best code on.
const CPUEnv = "AUTORAG_CPU"

// int8Products says whether models load for int8 products (package qgemm:
// the AVX-512 VNNI kernel, or the AVX2 one) rather than float32 products
// (package gemm, on CPUs with neither); tests turn it off to compare the
// two.
var int8Products = chooseCPU(os.Getenv(CPUEnv))

// chooseCPU applies the CPUEnv setting and says whether int8 products run.
func chooseCPU(setting string) bool {
	if setting == "avx2" {
		setAVX512(false)
	}
	return qgemm.Available()
}

// setAVX512 turns the AVX-512 code of qgemm and fastmath on (where the CPU
// has it) or off, and returns a function that restores the previous
// settings. Models must run under the setting they were loaded with.
func setAVX512(on bool) (restore func()) {
	q, f := qgemm.SetAVX512(on), fastmath.SetAVX512(on)
	return func() { qgemm.SetAVX512(q); fastmath.SetAVX512(f) }
}
