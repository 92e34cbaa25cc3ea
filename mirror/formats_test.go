package mirror

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/autorag/autorag/mirror/internal/parsetest"
	"github.com/autorag/autorag/mirror/parse"
)

func copyFormat(t *testing.T, root, name, as string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata/formats", name))
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, root, map[string]string{as: string(b)})
}

// renamed wraps a parser under another name@version: an upgraded parser.
type renamed struct {
	parse.Parser
	name string
}

func (r renamed) Name() string { return r.name }

// TestParserUpgradeReparsesOnlyItsFiles: bumping the HTML parser's version
// re-parses the HTML files on the next scan and stat-skips all others.
func TestParserUpgradeReparsesOnlyItsFiles(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.md": "# A\n", "b.txt": "b", "c.go": "package c\n",
		"site/one.html": "<h1>One</h1>", "site/two.htm": "<p>two</p>"})
	copyFormat(t, root, "report-libreoffice.docx", "r.docx")
	store := OpenStore(t.TempDir())
	first := scan(t, root, store, nil, ScanOptions{})
	if first.Parsed != 6 {
		t.Fatalf("first scan parsed %d, want 6 (failures %v)", first.Parsed, first.Failed)
	}
	old := formatByExt["html"]
	up := format{renamed{old.parser, "html@99"}, old.lang}
	formatByExt["html"], formatByExt["htm"] = up, up
	t.Cleanup(func() { formatByExt["html"], formatByExt["htm"] = old, old })

	second := scan(t, root, store, first.Manifest, ScanOptions{})
	if second.Parsed != 2 || second.StatSkipped != 4 {
		t.Errorf("after the upgrade: parsed %d, stat-skipped %d; want 2 and 4", second.Parsed, second.StatSkipped)
	}
	for _, e := range second.Manifest.Entries {
		prev, _ := first.Manifest.Lookup(e.Path)
		isHTML := strings.HasPrefix(e.Path, "site/")
		if (e.TextHash != prev.TextHash) != isHTML || isHTML && e.Parser != "html@99" {
			t.Errorf("%s: parser %s, text hash changed %v", e.Path, e.Parser, e.TextHash != prev.TextHash)
		}
	}
}

// TestPreviouslyUnsupportedPickedUp: a manifest written before PDF and
// office support has no entries for those files (they were skipped unread);
// the first scan with support parses them without --force.
func TestPreviouslyUnsupportedPickedUp(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"notes.md": "# Notes\n"})
	copyFormat(t, root, "report-libreoffice.pdf", "docs/report.pdf")
	copyFormat(t, root, "budget-libreoffice.xlsx", "docs/budget.xlsx")
	store := OpenStore(t.TempDir())
	full := scan(t, root, store, nil, ScanOptions{})
	var before Manifest // what the old binary committed: only notes.md
	for _, e := range full.Manifest.Entries {
		if e.Path == "notes.md" {
			before.Entries = append(before.Entries, e)
		}
	}
	res := scan(t, root, store, &before, ScanOptions{})
	if res.Parsed != 2 || res.StatSkipped != 1 || len(res.Manifest.Entries) != 3 {
		t.Fatalf("parsed %d, stat-skipped %d, entries %v; want the pdf and xlsx parsed", res.Parsed, res.StatSkipped, paths(res.Manifest))
	}
	e, _ := res.Manifest.Lookup("docs/report.pdf")
	if e.Parser != "pdf@3" {
		t.Errorf("pdf entry parser = %q", e.Parser)
	}
}

// TestHostileFilesFailBounded: a corrupt PDF, an encrypted PDF, a zip-bomb
// DOCX and a 100 MB spreadsheet are each reported with a reason while the
// other files are indexed; none stops the scan.
func TestHostileFilesFailBounded(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"ok.md": "# fine\n"})
	copyFormat(t, root, "report-encrypted.pdf", "encrypted.pdf")
	copyFormat(t, root, "report-encrypted.docx", "locked.docx")
	copyFormat(t, root, "budget-encrypted.xlsx", "locked.xlsx")
	copyFormat(t, root, "slides-encrypted.pptx", "locked.pptx")
	copyFormat(t, root, "scanned-no-text.pdf", "scanned.pdf")
	good, _ := os.ReadFile("testdata/formats/report-ghostscript.pdf")
	writeTree(t, root, map[string]string{"corrupt.pdf": string(good[:len(good)/3]) + "garbage"})
	writeTree(t, root, map[string]string{"bomb.docx": string(zipBomb(t, 1<<10))})
	big, err := os.Create(filepath.Join(root, "huge.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(100 << 20); err != nil { // 100 MB on disk, sparse
		t.Fatal(err)
	}
	big.Close()
	start := time.Now()
	res := scan(t, root, OpenStore(t.TempDir()), nil, ScanOptions{Limits: parse.Limits{MaxUnpacked: 1 << 20, Timeout: 2 * time.Minute}})
	t.Logf("scan took %v", time.Since(start))
	reasons := map[string]string{}
	for _, f := range res.Failed {
		reasons[f.Path] = f.Reason
	}
	want := map[string]string{
		"encrypted.pdf": "parse: encrypted",
		"locked.docx":   "parse: encrypted",
		"locked.xlsx":   "parse: encrypted",
		"locked.pptx":   "parse: encrypted",
		"scanned.pdf":   "parse: no text layer",
		"bomb.docx":     "parse: content over the size limit",
		"huge.xlsx":     "too large",
	}
	for p, w := range want {
		if !strings.HasPrefix(reasons[p], w) {
			t.Errorf("%s: reason %q, want prefix %q", p, reasons[p], w)
		}
	}
	if _, failed := reasons["corrupt.pdf"]; !failed {
		if _, ok := res.Manifest.Lookup("corrupt.pdf"); !ok {
			t.Errorf("corrupt.pdf neither failed nor indexed")
		}
	}
	if _, ok := res.Manifest.Lookup("ok.md"); !ok {
		t.Errorf("ok.md not indexed: %v", paths(res.Manifest))
	}
}

// zipBomb is a DOCX whose document.xml decompresses to n MiB of spaces.
func zipBomb(t *testing.T, n int) []byte {
	return parsetest.Zip(t, map[string]parsetest.Part{"word/document.xml": {
		Prefix: []byte("<w:document><w:body><w:p><w:r><w:t>"), Unit: bytes.Repeat([]byte{' '}, 1<<20), N: n}})
}

// TestEmailAttachmentsAsParts: the mutt export's PDF attachment keeps its
// pages beneath the message's label.
func TestEmailAttachmentsAsParts(t *testing.T) {
	raw, _ := os.ReadFile("testdata/formats/report-mail.eml")
	d, err := ParseContext(context.Background(), "mail.eml", raw, parse.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var pages []int
	for _, p := range d.Parts {
		if strings.HasPrefix(p.Section, "Quarterly report: certificate rotation > attachment: report-libreoffice.pdf") {
			pages = append(pages, p.Page)
		}
	}
	if len(pages) != 2 || pages[0] != 1 || pages[1] != 2 {
		t.Errorf("attachment pages = %v (parts %+v)", pages, d.Parts)
	}
	if DocType(d.Parser) != TypeEmail {
		t.Errorf("type = %s", DocType(d.Parser))
	}
}

// TestParseFailuresRemembered: a file its parser rejected is reported again
// from the memo without being read while its size, mtime and parser stay;
// touching it makes the next scan parse it again.
func TestParseFailuresRemembered(t *testing.T) {
	root := t.TempDir()
	copyFormat(t, root, "report-encrypted.pdf", "locked.pdf")
	writeTree(t, root, map[string]string{"a.md": "# A\n"})
	store := OpenStore(t.TempDir())
	first := scan(t, root, store, nil, ScanOptions{})
	if len(first.Failed) != 1 || first.Failures.Files["locked.pdf"].Reason != "parse: encrypted" || !first.FailuresChanged {
		t.Fatalf("first scan: failed %v, memo %+v", first.Failed, first.Failures)
	}
	memoPath := filepath.Join(t.TempDir(), "failed.json")
	if err := first.Failures.Save(memoPath); err != nil {
		t.Fatal(err)
	}
	second := scan(t, root, store, first.Manifest, ScanOptions{Failures: LoadFailMemo(memoPath)})
	if second.Hashed != 0 || len(second.Failed) != 1 || second.Failed[0].Reason != "parse: encrypted" || second.FailuresChanged {
		t.Fatalf("second scan: hashed %d, failed %v, memo changed %v", second.Hashed, second.Failed, second.FailuresChanged)
	}
	later := time.Now().Add(time.Second)
	if err := os.Chtimes(filepath.Join(root, "locked.pdf"), later, later); err != nil {
		t.Fatal(err)
	}
	third := scan(t, root, store, second.Manifest, ScanOptions{Failures: second.Failures})
	if third.Hashed != 1 || len(third.Failed) != 1 || !third.FailuresChanged {
		t.Fatalf("after touching: hashed %d, failed %v", third.Hashed, third.Failed)
	}
	if err := os.Remove(filepath.Join(root, "locked.pdf")); err != nil {
		t.Fatal(err)
	}
	fourth := scan(t, root, store, third.Manifest, ScanOptions{Failures: third.Failures})
	if len(fourth.Failures.Files) != 0 || len(fourth.Failed) != 0 {
		t.Fatalf("after removal: memo %+v, failed %v", fourth.Failures, fourth.Failed)
	}
}
