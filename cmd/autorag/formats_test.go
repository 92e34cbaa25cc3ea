package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// formatsRoot is a root holding real documents from mirror/testdata.
func formatsRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, name := range []string{"report-libreoffice.pdf", "report-encrypted.pdf", "report-libreoffice.docx", "release-notes.eml"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "mirror", "testdata", "formats", name))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, root, "docs/"+name, string(b))
	}
	writeFile(t, root, "notes.md", "---\ntitle: Notes\nowner: grace\n---\nThe certificate rotation runbook.\n")
	return root
}

func TestCLIFormatsPagesAndFilters(t *testing.T) {
	root := formatsRoot(t)
	r := refreshJSON(t, root)
	if num(r, "failed") != 1 || num(r, "files") != 4 {
		t.Fatalf("refresh: %v", r)
	}
	out := mustOK(t, "--root", root, "query", "--type", "pdf", "certificate expired replication paused").stdout
	if !strings.HasPrefix(out, "1. docs/report-libreoffice.pdf#page=2") {
		t.Errorf("human output of a PDF hit:\n%s", out)
	}
	j := mustOK(t, "--root", root, "query", "--json", "--type", "pdf", "certificate expired").json(t)
	res := j["results"].([]any)
	if len(res) != 1 || res[0].(map[string]any)["page"] != float64(2) {
		t.Errorf("json results: %v", res)
	}
	j = mustOK(t, "--root", root, "query", "--json", "--filter", "owner=Grace", "certificate").json(t)
	if res := j["results"].([]any); len(res) != 1 || res[0].(map[string]any)["path"] != "notes.md" {
		t.Errorf("--filter owner=Grace: %v", res)
	}
	j = mustOK(t, "--root", root, "query", "--json", "--type", "email", "--filter", "from=Ada Lovelace <ada@example.com>", "release").json(t)
	if res := j["results"].([]any); len(res) != 1 || res[0].(map[string]any)["title"] != "Réunion café: release notes" {
		t.Errorf("--type email --filter from=...: %v", res)
	}
	for _, bad := range [][]string{{"--type", "spreadsheet"}, {"--filter", "nokey"}} {
		r := cli(t, nil, append([]string{"--root", root, "query", "--json"}, append(bad, "x")...)...)
		if r.code != 2 || !strings.Contains(r.stdout, `"usage"`) {
			t.Errorf("%v: exit %d, stdout %s", bad, r.code, r.stdout)
		}
	}
}

// An e-mail attachment answers as an entry of its own: its location names
// the mail, the attachment and, for a PDF, the page.
func TestCLIAttachmentLocation(t *testing.T) {
	root := t.TempDir()
	b, err := os.ReadFile(filepath.Join("..", "..", "mirror", "testdata", "formats", "report-mail.eml"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "mail/report-mail.eml", string(b))
	refreshJSON(t, root)
	out := mustOK(t, "--root", root, "query", "replication paused for six hours").stdout
	if !strings.HasPrefix(out, "1. mail/report-mail.eml#attachment=report-libreoffice.pdf&page=2") ||
		strings.Contains(out, `attachment: "`) {
		t.Errorf("human output of an attachment hit (its location names the attachment, once):\n%s", out)
	}
	out = mustOK(t, "--root", root, "query", "--format", "markdown", "replication paused for six hours").stdout
	if !strings.Contains(out, "[1] mail/report-mail.eml#attachment=report-libreoffice.pdf&page=2") {
		t.Errorf("markdown output of an attachment hit:\n%s", out)
	}
	j := mustOK(t, "--root", root, "query", "--json", "replication paused for six hours").json(t)
	top := j["results"].([]any)[0].(map[string]any)
	if top["path"] != "mail/report-mail.eml" || top["attachment"] != "report-libreoffice.pdf" || top["page"] != float64(2) {
		t.Errorf("json result: %v", top)
	}
}
