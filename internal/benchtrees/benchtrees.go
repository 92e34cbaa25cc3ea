// Package benchtrees runs a benchmark on each tree a user names in
// AUTORAG_BENCH_TREES: a comma list of folders already indexed by
// `autorag refresh` (e.g. copies of the harness's generated corpora), for
// the benchmarks that need corpora too big to build in a test.
package benchtrees

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Env is the variable that names the trees.
const Env = "AUTORAG_BENCH_TREES"

// Each runs bench as a sub-benchmark named by the folder's base name, once
// for each tree of Env; it skips b when Env is unset.
func Each(b *testing.B, bench func(b *testing.B, dir string)) {
	env := os.Getenv(Env)
	if env == "" {
		b.Skip(Env + " not set")
	}
	for _, dir := range strings.Split(env, ",") {
		b.Run(filepath.Base(dir), func(b *testing.B) { bench(b, dir) })
	}
}
