// Package parsetest holds the checks every parser's tests and fuzz targets
// apply to a Doc.
package parsetest

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/autorag/autorag/mirror/parse"
)

// FuzzLimits are small limits for fuzz targets: a parse never takes long
// or much memory.
var FuzzLimits = parse.Limits{Timeout: 5 * time.Second, MaxText: 1 << 20, MaxUnpacked: 8 << 20}

// Parse runs p on data directly (not through parse.Run, so that a panic
// fails the test) under FuzzLimits, and checks the Doc it returns.
func Parse(t *testing.T, p parse.Parser, name string, data []byte) *parse.Doc {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), FuzzLimits.Timeout)
	defer cancel()
	d, err := p.Parse(ctx, &parse.Input{Path: name, Data: data, Limits: FuzzLimits})
	if err != nil {
		return nil
	}
	Check(t, d)
	return d
}

// Check fails t when d breaks a Doc invariant: text valid UTF-8 and NFC
// without CR or NUL, parts in increasing line order inside the text, known
// chunker kinds, UTF-8 fields.
func Check(t *testing.T, d *parse.Doc) {
	t.Helper()
	if !utf8.ValidString(d.Text) || !norm.NFC.IsNormalString(d.Text) || strings.ContainsAny(d.Text, "\r\x00") {
		t.Fatalf("text not normalized: %q", d.Text[:min(len(d.Text), 200)])
	}
	lines := strings.Count(d.Text, "\n") + 1
	for i, p := range d.Parts {
		if p.Line < 0 || p.Line >= lines || i > 0 && p.Line <= d.Parts[i-1].Line {
			t.Fatalf("part %d at line %d out of order (text has %d lines): %+v", i, p.Line, lines, d.Parts)
		}
		switch p.Kind {
		case "markdown", "text", "code":
		default:
			t.Fatalf("part %d has kind %q", i, p.Kind)
		}
		if p.Page < 0 {
			t.Fatalf("part %d has page %d", i, p.Page)
		}
	}
	for _, f := range parse.SortFields(d.Fields) {
		if !utf8.ValidString(f.Key) || !utf8.ValidString(f.Value) {
			t.Fatalf("field not UTF-8: %q", f)
		}
	}
}
