package chunk

import (
	"testing"

	"github.com/google/go-cmp/cmp"
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
