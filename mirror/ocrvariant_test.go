package mirror

import (
	"context"
	"errors"
	"image"
	"testing"

	"github.com/autorag/autorag/mirror/parse"
)

// fakeOCR reads every page as one line.
type fakeOCR struct{ name string }

func (f fakeOCR) Name() string { return f.name }

func (fakeOCR) Recognize(context.Context, *image.Gray, int) (string, error) {
	return "heliotrope valve", nil
}

// finder counts how often a scan asks for its OCR.
func finder(ocr parse.OCR, err error, calls *int) func(context.Context) (parse.OCR, error) {
	return func(context.Context) (parse.OCR, error) { *calls++; return ocr, err }
}

// A scanned PDF's parser names what became of its pages; the PDF with a
// text layer keeps the plain name. Only the scan is parsed again when OCR
// turns on, its engine changes or it turns off; the OCR program is looked
// for only when a PDF needs it.
func TestOCRVariantsReparseOnlyScans(t *testing.T) {
	root := t.TempDir()
	copyFormat(t, root, "report-libreoffice.pdf", "report.pdf")
	copyFormat(t, root, "scanned-ocr.pdf", "scan.pdf")
	store := OpenStore(t.TempDir())
	off := scan(t, root, store, nil, ScanOptions{})
	if len(off.Failed) != 1 || off.Failures.Files["scan.pdf"].Parser != "pdf@3+ocr-off" {
		t.Fatalf("OCR off: failed %v, memo %v", off.Failed, off.Failures.Files)
	}
	calls := 0
	steps := []struct {
		name          string
		ocr           func(context.Context) (parse.OCR, error)
		hashed, calls int
		scanParser    string
	}{
		{"on", finder(fakeOCR{"fake@1"}, nil, &calls), 1, 1, "pdf@3+fake@1"},
		{"same", finder(fakeOCR{"fake@1"}, nil, &calls), 0, 1, "pdf@3+fake@1"},
		{"upgraded", finder(fakeOCR{"fake@2"}, nil, &calls), 1, 1, "pdf@3+fake@2"},
		{"unavailable", finder(nil, errors.New("not found"), &calls), 1, 1, ""},
	}
	prev, memo := off.Manifest, off.Failures
	for _, st := range steps {
		calls = 0
		res := scan(t, root, store, prev, ScanOptions{OCR: st.ocr, Failures: memo})
		parser := ""
		if e, ok := res.Manifest.Lookup("scan.pdf"); ok {
			parser = e.Parser
		}
		if res.Hashed != st.hashed || calls != st.calls || parser != st.scanParser {
			t.Errorf("%s: hashed %d, OCR looked for %d times, scan's parser %q; want %d, %d, %q",
				st.name, res.Hashed, calls, parser, st.hashed, st.calls, st.scanParser)
		}
		if r, ok := res.Manifest.Lookup("report.pdf"); !ok || r.Parser != "pdf@3" {
			t.Errorf("%s: report's entry %v", st.name, r)
		}
		prev, memo = res.Manifest, res.Failures
	}
	// Without a scanned PDF the program is not looked for at all.
	onlyText := t.TempDir()
	copyFormat(t, onlyText, "report-libreoffice.pdf", "report.pdf")
	first := scan(t, onlyText, store, nil, ScanOptions{})
	calls = 0
	res := scan(t, onlyText, store, first.Manifest, ScanOptions{OCR: finder(fakeOCR{"fake@1"}, nil, &calls)})
	if calls != 0 || res.StatSkipped != 1 {
		t.Errorf("text PDF only: OCR looked for %d times, stat-skipped %d", calls, res.StatSkipped)
	}
}
