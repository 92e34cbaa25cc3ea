package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mailRoot is a root holding the mutt exports: a mail with a PDF attached
// and a mailbox whose messages attach a PDF, slides and a spreadsheet.
func mailRoot(t *testing.T) string {
	t.Helper()
	root := mailFiles(t)
	refreshJSON(t, root)
	return root
}

// mailFiles is mailRoot before its first refresh.
func mailFiles(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, name := range []string{"report-mail.eml", "sent-mutt.mbox", "report-libreoffice.docx"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "mirror", "testdata", "formats", name))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, root, "mail/"+name, string(b))
	}
	return root
}

// entries lists a JSON answer's results as path#attachment.
func entries(t *testing.T, r result) []string {
	t.Helper()
	var out []string
	for _, x := range r.json(t)["results"].([]any) {
		m := x.(map[string]any)
		a, _ := m["attachment"].(string)
		out = append(out, m["path"].(string)+"#"+a)
	}
	return out
}

// --type and --filter resolve per entry: an attachment is filtered by its
// own type and document properties (and the headers of its mail where it
// has no field of that name), the message by its own.
func TestCLIFiltersResolvePerAttachment(t *testing.T) {
	root := mailRoot(t)
	for _, mode := range []string{"hybrid", "bm25"} {
		t.Run(mode, func(t *testing.T) { checkAttachmentFilters(t, root, mode, nil) })
	}
}

// checkAttachmentFilters runs the cases with env (the backend's settings).
func checkAttachmentFilters(t *testing.T, root, mode string, env []string) {
	q := func(args ...string) []string {
		t.Helper()
		args = append([]string{"--root", root, "query", "--json", "--mode", mode, "--per-file", "3"}, args...)
		r := cli(t, env, args...)
		if r.code != 0 {
			t.Fatalf("autorag %v: exit %d\nstdout: %s\nstderr: %s", args, r.code, r.stdout, r.stderr)
		}
		return entries(t, r)
	}
	cases := []struct {
		args []string
		want []string // every result is one of these entries, and the first is want[0]
	}{
		{[]string{"--type", "pdf", "replication paused for six hours"},
			[]string{"mail/report-mail.eml#report-libreoffice.pdf", "mail/sent-mutt.mbox#report-libreoffice.pdf"}},
		{[]string{"--type", "office", "incident review timeline"},
			[]string{"mail/sent-mutt.mbox#slides-pandoc.pptx", "mail/sent-mutt.mbox#budget.xlsx", "mail/report-libreoffice.docx#"}},
		{[]string{"--type", "email", "quarterly report certificate rotation"},
			[]string{"mail/report-mail.eml#", "mail/sent-mutt.mbox#"}},
		{[]string{"--filter", "author=Ada Lovelace", "--filter", "producer=LibreOffice 7.4", "--type", "pdf", "certificate"},
			[]string{"mail/report-mail.eml#report-libreoffice.pdf", "mail/sent-mutt.mbox#report-libreoffice.pdf"}},
		{[]string{"--filter", "to=grace@example.com", "--type", "pdf", "disk controller"},
			[]string{"mail/report-mail.eml#report-libreoffice.pdf", "mail/sent-mutt.mbox#report-libreoffice.pdf"}},
	}
	for _, c := range cases {
		got := q(c.args...)
		if len(got) == 0 {
			t.Errorf("%q: no results", c.args)
			continue
		}
		for _, g := range got {
			ok := false
			for _, w := range c.want {
				ok = ok || g == w
			}
			if !ok {
				t.Errorf("%q: result %s is not one of %v (all: %v)", c.args, g, c.want, got)
			}
		}
	}
	// The PDF's own subject wins over its mail's.
	if got := q("--filter", "subject=Storage reliability", "--type", "pdf", "certificate"); len(got) == 0 || !strings.HasSuffix(got[0], "#report-libreoffice.pdf") {
		t.Errorf("--filter subject=Storage reliability --type pdf: %v", got)
	}
	if got := q("--filter", "subject=Quarterly report: certificate rotation", "--type", "pdf", "certificate"); len(got) != 0 {
		t.Errorf("the mail's subject filtered a PDF that has its own: %v", got)
	}
}
