package pdf

import (
	"context"
	"slices"
	"testing"

	"github.com/autorag/autorag/mirror/parse"
)

// The first PDF of a process says, through parse.Notify, that it is
// preparing the PDF engine, and ends the notice; later ones say nothing.
func TestWarmSaysWhatItDoes(t *testing.T) {
	var heard []string
	ctx := parse.WithNotice(context.Background(), func(s string) { heard = append(heard, s) })
	first := !started()
	if _, err := parse.Run(ctx, Parser{}, &parse.Input{Data: read(t, "hyphenated.pdf")}); err != nil {
		t.Fatal(err)
	}
	if first && !slices.Equal(heard, []string{warmNotice, ""}) {
		t.Errorf("first parse: heard %q, want the notice and its end", heard)
	}
	heard = nil
	if _, err := parse.Run(ctx, Parser{}, &parse.Input{Data: read(t, "hyphenated.pdf")}); err != nil {
		t.Fatal(err)
	}
	if len(heard) != 0 {
		t.Errorf("second parse: heard %q, want nothing", heard)
	}
}
