package chunk

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/engine/codedef"
)

// FuzzSplit checks Split's guarantees on arbitrary input. Sizes are folded
// into 1..512 (or left <= 0 to exercise the defaults) so that cuts happen.
func FuzzSplit(f *testing.F) {
	f.Add(uint8(0), "# A\n\ntext\n\n## B\n```\n# x\n```\n", 20, 5)
	f.Add(uint8(1), "func a() {\n\tx()\n\n\ty()\n}\n\nfunc b() {}\n", 16, 4)
	f.Add(uint8(2), "one two three four five six seven", 8, 3)
	f.Fuzz(func(t *testing.T, kindSel uint8, text string, size, overlap int) {
		kind := [...]string{KindMarkdown, KindCode, KindText}[int(kindSel)%3]
		if size > 0 {
			size = size%512 + 1
		}
		o := Options{Size: size, Overlap: overlap}
		got := Split(kind, text, o)
		checkChunks(t, text, o, got)
		if diff := cmp.Diff(got, Split(kind, text, o)); diff != "" {
			t.Fatalf("Split is not deterministic:\n%s", diff)
		}
	})
}

// FuzzSplitDefs checks SplitDefs' guarantees on arbitrary input with
// arbitrary definitions (each 3 bytes of spec: first line, line count,
// parent), as a syntax parser gone wrong might give them.
func FuzzSplitDefs(f *testing.F) {
	f.Add("class A:\n    def f(self):\n        pass\n\n    def g(self):\n        pass\n", []byte{1, 6, 255, 2, 2, 0, 5, 2, 0}, 24)
	f.Add("a\n\nb\n", []byte{0, 9, 3, 2, 0, 0}, 1)
	f.Fuzz(func(t *testing.T, text string, spec []byte, size int) {
		if size > 0 {
			size = size%512 + 1
		}
		var defs []codedef.Def
		for i := 0; i+2 < len(spec) && len(defs) < 64; i += 3 {
			s := int(spec[i])
			defs = append(defs, codedef.Def{Name: fmt.Sprint("d", len(defs)), Kind: codedef.KindFunction,
				StartLine: s, EndLine: s + int(spec[i+1]) - 1, Parent: int(int8(spec[i+2]))})
		}
		o := Options{Size: size}
		got := SplitDefs(KindCode, "python", text, defs, o)
		checkChunks(t, text, o, got)
		if diff := cmp.Diff(got, SplitDefs(KindCode, "python", text, defs, o)); diff != "" {
			t.Fatalf("SplitDefs is not deterministic:\n%s", diff)
		}
	})
}
