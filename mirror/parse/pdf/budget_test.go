package pdf

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/autorag/autorag/internal/amplify"
	"github.com/autorag/autorag/mirror/parse"
)

var word = []amplify.Piece{{S: "BT /F1 12 Tf 72 720 Td (the objstmword) Tj ET", N: 1}}

// TestObjectStreamUnderBudgetParses: the amplifiers are real PDFs (their
// pages sit in an object stream behind a cross-reference stream): under
// the budget their text is read.
func TestObjectStreamUnderBudgetParses(t *testing.T) {
	data, err := amplify.PDF(1<<20, word, 3)
	if err != nil {
		t.Fatal(err)
	}
	d, err := parse.Run(context.Background(), Parser{}, &parse.Input{Data: data})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(d.Text, "objstmword") != 3 || len(d.Parts) != 3 {
		t.Fatalf("text %q, %d parts: want the word on each of 3 pages", d.Text, len(d.Parts))
	}
}

// TestInflationOverBudgetRefused: an object stream inflating past
// MaxUnpacked, and one page content drawn by pages past four times the
// text cap, are ErrTooLarge before PDFium decodes them.
func TestInflationOverBudgetRefused(t *testing.T) {
	objstm, err := amplify.PDF(40<<20, word, 1)
	if err != nil {
		t.Fatal(err)
	}
	shared, err := amplify.PDF(0, []amplify.Piece{{S: "BT /F1 12 Tf 72 720 Td ", N: 1}, {S: "(heronword ) Tj ", N: 1 << 16}, {S: " ET", N: 1}}, 40)
	if err != nil {
		t.Fatal(err)
	}
	lim := parse.Limits{MaxText: 1 << 20, MaxUnpacked: 32 << 20}
	for name, data := range map[string][]byte{"object stream": objstm, "content x pages": shared} {
		if len(data) > 1<<20 {
			t.Fatalf("%s: %d bytes, not a small file", name, len(data))
		}
		_, err := parse.Run(context.Background(), Parser{}, &parse.Input{Data: data, Limits: lim})
		if !errors.Is(err, parse.ErrTooLarge) {
			t.Errorf("%s: %v, want ErrTooLarge", name, err)
		}
	}
	// The same content drawn by 2 pages is within the budget.
	two, err := amplify.PDF(0, []amplify.Piece{{S: "BT /F1 12 Tf 72 720 Td ", N: 1}, {S: "(heronword ) Tj ", N: 1 << 16}, {S: " ET", N: 1}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := inflateBudget(two, lim.WithDefaults()); err != nil {
		t.Errorf("2 pages of 1 MiB content: %v", err)
	}
}
