package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/autorag/autorag/engine/backend"
)

// mailEngine indexes the mutt export of a mail with a PDF attachment and a
// mailbox whose messages attach a PDF, slides and a spreadsheet.
func mailEngine(t *testing.T) *Engine {
	t.Helper()
	files := map[string]string{}
	for _, name := range []string{"report-mail.eml", "sent-mutt.mbox"} {
		b, err := os.ReadFile(filepath.Join("../mirror/testdata/formats", name))
		if err != nil {
			t.Fatal(err)
		}
		files["mail/"+name] = string(b)
	}
	e := newTestEngine(t, files)
	if _, err := e.Refresh(context.Background(), RefreshOptions{}); err != nil {
		t.Fatal(err)
	}
	return e
}

func TestAttachmentResultsNameTheirAttachmentAndPage(t *testing.T) {
	e := mailEngine(t)
	res := queryTop10(t, e, QueryOptions{Text: "replication paused for six hours", Mode: ModeBM25, PerFile: 1})
	if len(res.Results) == 0 {
		t.Fatal("no results")
	}
	top := res.Results[0]
	// Both mail files carry the same PDF under the same subject: either may rank first.
	if !backend.MayAttach(top.Path) || top.Attachment != "report-libreoffice.pdf" || top.Page != 2 {
		t.Fatalf("top result = %s attachment %q page %d, want a mail file, report-libreoffice.pdf, page 2",
			top.Path, top.Attachment, top.Page)
	}
	for _, r := range res.Results {
		if r.Attachment == "" && r.Page != 0 {
			t.Errorf("%s: the message itself has page %d", r.Path, r.Page)
		}
	}
}

// An attachment is an entry of its own: with one result per file, the mail
// and its attachment both answer a query that both match.
func TestAttachmentIsAnEntryOfItsOwn(t *testing.T) {
	e := mailEngine(t)
	res := queryTop10(t, e, QueryOptions{Text: "quarterly reliability report certificate rotation", Mode: ModeBM25, PerFile: 1})
	entries := map[string]int{}
	for _, r := range res.Results {
		if r.Path == "mail/report-mail.eml" {
			entries[r.Attachment]++
		}
	}
	if entries[""] != 1 || entries["report-libreoffice.pdf"] != 1 {
		t.Fatalf("entries of mail/report-mail.eml in results = %v, want the message and its PDF once each", entries)
	}
	// The mailbox's slides are an entry too, with the message's subject in
	// the section.
	res = queryTop10(t, e, QueryOptions{Text: "incident review timeline root cause", Mode: ModeBM25, PerFile: 1})
	found := false
	for _, r := range res.Results {
		if r.Path == "mail/sent-mutt.mbox" && r.Attachment == "slides-pandoc.pptx" {
			found = true
		}
	}
	if !found {
		t.Fatalf("no result from the mailbox's slides attachment: %+v", res.Results)
	}
}
