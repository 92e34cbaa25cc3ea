package semguard

import (
	"testing"

	"go/types"
)

// BenchmarkCheck is what TestGuard costs: listing the packages, reading the
// dependencies' export data, parsing and type-checking the module,
// digesting every region and the query path, and comparing the record.
func BenchmarkCheck(b *testing.B) {
	for b.Loop() {
		exportCache.Lock()
		exportCache.m = map[string]map[string]*types.Package{}
		exportCache.Unlock()
		if err := Check("..", Project); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckSharedExports is the cost of each mutation test: the
// dependencies' types are shared within the test process.
func BenchmarkCheckSharedExports(b *testing.B) {
	if err := Check("..", Project); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := Check("..", Project); err != nil {
			b.Fatal(err)
		}
	}
}
