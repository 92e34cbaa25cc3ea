package email

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/autorag/autorag/mirror/internal/parsetest"
	"github.com/autorag/autorag/mirror/parse"
)

// nested stands in for the mirror's dispatch: .txt attachments as text.
func nested(_ context.Context, name string, data []byte) (*parse.Doc, string, bool, error) {
	if !strings.HasSuffix(name, ".txt") {
		return nil, "", false, nil
	}
	return &parse.Doc{Text: string(data)}, "text@2", true, nil
}

const msg = "From: =?utf-8?q?Ad=C3=A1?= <ada@example.com>\r\nTo: bob@example.com\r\nSubject: =?iso-8859-1?q?R=E9sum=E9?=\r\n" +
	"Date: Mon, 2 Mar 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=X\r\n\r\n" +
	"--X\r\nContent-Type: multipart/alternative; boundary=Y\r\n\r\n" +
	"--Y\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>html <b>body</b></p>\r\n" +
	"--Y\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nplain caf=E9 body\r\n--Y--\r\n" +
	"--X\r\nContent-Type: text/plain; name=notes.txt\r\nContent-Disposition: attachment; filename=notes.txt\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
	"YXR0YWNoZWQgbm90ZXM=\r\n" +
	"--X\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=blob.bin\r\n\r\n\x00\x01\r\n--X--\r\n"

func TestEMLHeadersBodyAttachments(t *testing.T) {
	d, err := EML{}.Parse(context.Background(), &parse.Input{Data: []byte(msg), Limits: parse.DefaultLimits, Nested: nested})
	if err != nil {
		t.Fatal(err)
	}
	parsetest.Check(t, d)
	if d.Title != "Résumé" {
		t.Errorf("title = %q", d.Title)
	}
	for _, want := range []string{"From: Adá <ada@example.com>", "plain café body", "attached notes"} {
		if !strings.Contains(d.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, d.Text)
		}
	}
	if strings.Contains(d.Text, "html body") {
		t.Errorf("the html alternative was used although a plain one exists")
	}
	// A single message's section is its subject, as a mailbox message's is.
	if len(d.Parts) != 2 || d.Parts[0].Section != "Résumé" || d.Parts[1].Section != "Résumé > attachment: notes.txt" {
		t.Errorf("parts = %+v", d.Parts)
	}
}

func TestMboxSplitsMessages(t *testing.T) {
	box := "From a@x Mon Mar  2 10:00:00 2026\nSubject: one\n\nfirst\n>From the start\n\nFrom b@x Mon Mar  2 11:00:00 2026\nSubject: two\n\nsecond\n"
	d, err := Mbox{}.Parse(context.Background(), &parse.Input{Data: []byte(box), Limits: parse.DefaultLimits})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Parts) != 2 || d.Parts[0].Section != "one" || d.Parts[1].Section != "two" {
		t.Fatalf("parts = %+v", d.Parts)
	}
	if !strings.Contains(d.Text, "\nFrom the start\n") {
		t.Errorf("mboxrd quoting not undone: %q", d.Text)
	}
}

func FuzzEML(f *testing.F) {
	f.Add([]byte(msg))
	if b, err := os.ReadFile("../../testdata/formats/release-notes.eml"); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		parsetest.Parse(t, EML{}, "f.eml", data)
	})
}

func FuzzMbox(f *testing.F) {
	f.Add([]byte("From a\nSubject: x\n\nbody\n\nFrom b\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		parsetest.Parse(t, Mbox{}, "f.mbox", data)
	})
}

// stalled returns (0, nil) forever, as some readers do on odd input.
type stalled struct{}

func (stalled) Read([]byte) (int, error) { return 0, nil }

type hdr map[string]string

func (h hdr) Get(k string) string { return h[k] }

// TestStalledBodyDoesNotHang: the base64 and quoted-printable decoders
// loop on a reader that makes no progress; the guard stops them. (Found by
// FuzzEML: its workers stalled on such an input.)
func TestStalledBodyDoesNotHang(t *testing.T) {
	for _, cte := range []string{"base64", "quoted-printable", ""} {
		done := make(chan error, 1)
		go func() {
			w := &mimeWalker{ctx: context.Background(), in: &parse.Input{Limits: parse.DefaultLimits}, m: &message{}}
			done <- w.entity(hdr{"Content-Type": "text/plain", "Content-Transfer-Encoding": cte}, stalled{}, 0)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%q body: entity still reading after 10 s", cte)
		}
	}
}
