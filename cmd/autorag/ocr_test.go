package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autorag/autorag/internal/ocrtest"
)

// ocrRoot is a root with a scanned PDF (2 pages of images; "heliotrope"
// only on page 2), a PDF with a text layer and a note.
func ocrRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for name, as := range map[string]string{"scanned-ocr.pdf": "scans/log.pdf", "report-libreoffice.pdf": "docs/report.pdf"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "mirror", "testdata", "formats", name))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, root, as, string(b))
	}
	writeFile(t, root, "notes.md", "# Notes\nThe valves are checked weekly.\n")
	return root
}

// failureOf is the failure reason refresh reported for path; "" for none.
func failureOf(r map[string]any, path string) string {
	fs, _ := r["failures"].([]any)
	for _, f := range fs {
		if m := f.(map[string]any); m["path"] == path {
			return m["reason"].(string)
		}
	}
	return ""
}

// firstHit is the path and page of the first result of a JSON query.
func firstHit(t *testing.T, root, query string, env []string) (string, int) {
	t.Helper()
	r := cli(t, env, "--root", root, "query", "--json", query)
	if r.code != 0 {
		t.Fatalf("query %q: exit %d: %s", query, r.code, r.stderr)
	}
	res, _ := r.json(t)["results"].([]any)
	if len(res) == 0 {
		return "", 0
	}
	m := res[0].(map[string]any)
	page, _ := m["page"].(float64)
	return m["path"].(string), int(page)
}

// Without --ocr a scan is reported `no text layer` with a hint naming
// --ocr; with it, its words are found on their page, only the scanned PDF
// is parsed again, a second refresh does nothing, and turning OCR off
// again reports the scan unread as before.
func TestCLIOCRReadsScannedPDF(t *testing.T) {
	root := ocrRoot(t)
	env := []string{"AUTORAG_OCR_COMMAND=" + ocrtest.Command(t)}
	r := cli(t, env, "--root", root, "refresh", "--json")
	reason := failureOf(r.json(t), "scans/log.pdf")
	if r.code != 0 || !strings.Contains(reason, "no text layer") || !strings.Contains(reason, "--ocr") {
		t.Fatalf("refresh without OCR: exit %d, scan's reason %q", r.code, reason)
	}
	if p, _ := firstHit(t, root, "heliotrope", env); p == "scans/log.pdf" {
		t.Fatalf("the scan answered before OCR")
	}
	j := cli(t, env, "--root", root, "refresh", "--ocr", "--json").json(t)
	if num(j, "parsed") != 1 || num(j, "ocr_pages") != 2 || num(j, "failed") != 0 || num(j, "files") != 3 {
		t.Fatalf("refresh --ocr: want only the scan parsed, 2 pages read: %v", j)
	}
	if p, page := firstHit(t, root, "heliotrope valve", env); p != "scans/log.pdf" || page != 2 {
		t.Errorf("heliotrope: first hit %s page %d, want scans/log.pdf page 2", p, page)
	}
	if p, page := firstHit(t, root, "spillway inspected", env); p != "scans/log.pdf" || page != 1 {
		t.Errorf("spillway: first hit %s page %d, want scans/log.pdf page 1", p, page)
	}
	j = cli(t, env, "--root", root, "refresh", "--ocr", "--json").json(t)
	if j["outcome"] != "unchanged" || num(j, "parsed") != 0 {
		t.Errorf("second refresh --ocr: %v", j)
	}
	j = cli(t, env, "--root", root, "refresh", "--json").json(t)
	if num(j, "hashed") != 1 || num(j, "stat_skipped") != 2 || !strings.Contains(failureOf(j, "scans/log.pdf"), "no text layer") {
		t.Errorf("refresh with OCR off again: want only the scan read again, and unread: %v", j)
	}
}

// ocr = true in the config file, or AUTORAG_OCR, turns OCR on as --ocr
// does, and `autorag config` says where it came from.
func TestCLIOCRFromConfigAndEnv(t *testing.T) {
	cmd := ocrtest.Command(t)
	root := ocrRoot(t)
	writeFile(t, root, ".autorag/config.toml", "ocr = true\nocr_command = \""+cmd+"\"\n")
	if out := mustOK(t, "--root", root, "refresh").stdout; !strings.Contains(out, "OCR read 2 pages of scanned PDFs") {
		t.Errorf("refresh with ocr = true:\n%s", out)
	}
	out := mustOK(t, "--root", root, "config").stdout
	if !strings.Contains(out, "ocr") || !strings.Contains(out, "config") {
		t.Errorf("config output lacks ocr from the file:\n%s", out)
	}
	root2 := ocrRoot(t)
	j := cli(t, []string{"AUTORAG_OCR=on", "AUTORAG_OCR_COMMAND=" + cmd}, "--root", root2, "refresh", "--json").json(t)
	if num(j, "ocr_pages") != 2 {
		t.Errorf("AUTORAG_OCR=on: %v", j)
	}
	if r := cli(t, []string{"AUTORAG_OCR=maybe"}, "--root", root2, "refresh"); r.code != 2 || !strings.Contains(r.stderr, "true or false") {
		t.Errorf("AUTORAG_OCR=maybe: exit %d, %s", r.code, r.stderr)
	}
}

// --ocr where tesseract cannot be found: the refresh still commits (exit
// 0), warns with the command that installs it, keeps the scan reported
// `no text layer`, and loses nothing it had indexed.
func TestCLIOCRWithoutTesseract(t *testing.T) {
	root := ocrRoot(t)
	refreshJSON(t, root)
	for _, env := range [][]string{{"PATH=" + t.TempDir()}, {"AUTORAG_OCR_COMMAND=" + filepath.Join(t.TempDir(), "tesseract")}} {
		r := cli(t, env, "--root", root, "refresh", "--ocr", "--json")
		if r.code != 0 {
			t.Fatalf("%v: exit %d: %s", env, r.code, r.stderr)
		}
		j := r.json(t)
		if !strings.Contains(r.stderr, "warning: OCR is on but cannot run") || !strings.Contains(r.stderr, "apt-get install tesseract-ocr tesseract-ocr-eng") {
			t.Errorf("%v: stderr lacks the warning and hint:\n%s", env, r.stderr)
		}
		if num(j, "files") != 2 || !strings.Contains(failureOf(j, "scans/log.pdf"), "no text layer") {
			t.Errorf("%v: %v", env, j)
		}
		if p, page := firstHit(t, root, "replication paused", nil); p != "docs/report.pdf" || page == 0 {
			t.Errorf("%v: the text PDF no longer answers: %s page %d", env, p, page)
		}
	}
}

// A tesseract whose version differs (an upgrade) re-parses the scanned
// PDF and no other file; `watch --once` follows ocr = true in the config
// file as refresh does.
func TestCLIOCRUpgradeAndWatch(t *testing.T) {
	cmd := ocrtest.Command(t)
	root := ocrRoot(t)
	writeFile(t, root, ".autorag/config.toml", "ocr = true\nocr_command = \""+cmd+"\"\n")
	r := cli(t, nil, "--root", root, "watch", "--once", "--json")
	if r.code != 0 || !strings.Contains(r.stdout, `"ocr_pages":2`) {
		t.Fatalf("watch --once with ocr = true: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	upgraded := filepath.Join(t.TempDir(), "tesseract")
	script := "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'tesseract 9.9.9'; exit 0; fi\nexec '" + cmd + "' \"$@\"\n"
	if err := os.WriteFile(upgraded, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	j := cli(t, []string{"AUTORAG_OCR_COMMAND=" + upgraded}, "--root", root, "refresh", "--json").json(t)
	if num(j, "hashed") != 1 || num(j, "parsed") != 1 || num(j, "ocr_pages") != 2 || num(j, "stat_skipped") != 2 {
		t.Errorf("refresh after the upgrade: want only the scan parsed again: %v", j)
	}
}
