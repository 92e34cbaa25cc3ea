package syntax

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// FuzzParse feeds any bytes to every language: Parse returns definitions
// whose spans hold (checkSpans) or an error, and never panics or hangs.
func FuzzParse(f *testing.F) {
	langs := Languages()
	samples, _ := filepath.Glob("testdata/samples/*")
	for _, path := range samples {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(slices.Index(langs, LangOf(path))), src)
	}
	f.Fuzz(func(t *testing.T, pick uint8, src []byte) {
		lang := langs[int(pick)%len(langs)]
		ds, err := Parse(context.Background(), lang, src)
		if err != nil {
			return
		}
		checkSpans(t, src, ds)
	})
}
