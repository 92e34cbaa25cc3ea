package analyze

import (
	"strings"
	"testing"
)

var germanProse = strings.Repeat("Die Verteidigung der Panthers ließ in der ganzen Saison nur 308 Punkte zu und war damit die sechstbeste der Liga, während die Offensive mit 500 Punkten die beste war. ", 16)

// BenchmarkAnalyzeLanguage compares the English chain and the German one
// (Snowball, which allocates per token) on the same German text, and the
// detector.
func BenchmarkAnalyzeLanguage(b *testing.B) {
	for _, code := range []string{"en", "de"} {
		b.Run(code, func(b *testing.B) {
			a := ForLanguage(code)
			buf := make([]byte, len(germanProse))
			b.SetBytes(int64(len(germanProse)))
			for b.Loop() {
				copy(buf, germanProse)
				a.Analyze(buf)
			}
		})
	}
	b.Run("detect", func(b *testing.B) {
		b.SetBytes(int64(len(germanProse)))
		for b.Loop() {
			Detect(germanProse)
		}
	})
}
