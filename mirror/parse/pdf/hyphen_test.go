package pdf

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/autorag/autorag/mirror/parse"
)

// A word broken by a hyphen at a line end is one word in the text
// (PDFium marks that hyphen with U+0002), and no control character is left.
func TestHyphenatedWordsJoined(t *testing.T) {
	d, err := parse.Run(context.Background(), Parser{}, &parse.Input{Data: read(t, "hyphenated.pdf")})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"effects", "specialization", "optimizations"} {
		if !strings.Contains(d.Text, w) {
			t.Errorf("text %q lacks %q", d.Text, w)
		}
	}
	if strings.ContainsAny(d.Text, "\x02\u00ad") {
		t.Errorf("text %q holds a hyphen mark", d.Text)
	}
}

// A PDF whose pages hold no text (a scan) fails with ErrNoText, so the
// refresh lists it among its failures instead of indexing nothing silently.
func TestNoTextLayer(t *testing.T) {
	_, err := parse.Run(context.Background(), Parser{}, &parse.Input{Data: read(t, "scanned-no-text.pdf")})
	if !errors.Is(err, parse.ErrNoText) {
		t.Fatalf("err = %v, want ErrNoText", err)
	}
}
