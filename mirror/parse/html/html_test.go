package html

import (
	"context"
	"strings"
	"testing"

	"github.com/autorag/autorag/mirror/internal/parsetest"
)

func TestExtractDropsChromeKeepsStructure(t *testing.T) {
	page := `<html><head><title>T &amp; co</title><meta name="author" content="Ada">
<style>.x{}</style><script>var tracking = 1;</script></head><body>
<nav>Home | Docs</nav><header>Site banner</header>
<div role="navigation">Menu entries</div>
<main><h1>Main heading</h1><p>First <b>para</b>graph.</p><h3>Sub</h3><ul><li>one</li><li>two</li></ul>
<p hidden>secret</p><p># not a heading</p></main>
<footer>Copyright</footer></body></html>`
	d, err := Extract(context.Background(), []byte(page), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	want := "# Main heading\n\nFirst paragraph.\n\n### Sub\n\n- one\n- two\n\n\\# not a heading\n\n"
	if d.Text != want {
		t.Errorf("text = %q\nwant   %q", d.Text, want)
	}
	if d.Title != "T & co" {
		t.Errorf("title = %q", d.Title)
	}
	for _, gone := range []string{"tracking", "Home", "banner", "Menu", "secret", "Copyright"} {
		if strings.Contains(d.Text, gone) {
			t.Errorf("chrome %q kept: %q", gone, d.Text)
		}
	}
	if len(d.Fields) != 1 || d.Fields[0].Value != "Ada" {
		t.Errorf("fields = %+v", d.Fields)
	}
}

func TestExtractWithoutMainKeepsBodyAndHeaderInside(t *testing.T) {
	d, err := Extract(context.Background(), []byte("<body><h2>Hi</h2>text<br>more<table><tr><td>a</td><td>b</td></tr></table></body>"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if want := "## Hi\n\ntext\nmore\na | b\n\n"; d.Text != want {
		t.Errorf("text = %q, want %q", d.Text, want)
	}
	if d.Title != "" {
		t.Errorf("title falls back to an h1 only, not an h2; got %q", d.Title)
	}
}

func TestExtractMetaCharset(t *testing.T) {
	d, err := Extract(context.Background(), []byte("<meta charset=\"iso-8859-1\"><p>caf\xe9</p>"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(d.Text, "café") {
		t.Errorf("text = %q", d.Text)
	}
}

func FuzzHTML(f *testing.F) {
	f.Add([]byte("<html><title>x</title><main><h1>a</h1><pre>b\n c</pre></main>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		parsetest.Parse(t, Parser{}, "f.html", data)
	})
}

// TestExtractDeclaredLanguage: <html lang> becomes the field "lang", which
// the engine prefers to detecting the page's language; an empty one is no
// field.
func TestExtractDeclaredLanguage(t *testing.T) {
	for page, want := range map[string]string{
		`<html lang="de-AT"><body><p>Hallo</p></body></html>`: "de-AT",
		`<html lang=""><body><p>Hello</p></body></html>`:      "",
		`<html><body><p>Hello</p></body></html>`:              "",
	} {
		d, err := Extract(context.Background(), []byte(page), 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, f := range d.Fields {
			if f.Key == "lang" {
				got = f.Value
			}
		}
		if got != want {
			t.Errorf("%s: lang field %q, want %q", page, got, want)
		}
	}
}

// A charset declared after the first 1,024 bytes (behind a long script) is
// the one the HTML5 parser switches to, before any detection runs; the
// http-equiv form counts too, and a meta inside a script does not.
func TestExtractLateMetaCharset(t *testing.T) {
	script := "<script>" + strings.Repeat("var pad = 1;\n", 400) + "var s = \"<meta charset=koi8-r>\";</script>"
	cyrillic := "\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0" // "Привет, мир" in windows-1251
	for name, meta := range map[string]string{
		"charset":    `<meta charset="windows-1251">`,
		"http-equiv": `<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">`,
	} {
		page := "<html><head><title>t</title>" + script + meta + "</head><body><p>" + cyrillic + "</p></body></html>"
		d, err := Extract(context.Background(), []byte(page), 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(d.Text, "Привет, мир") {
			t.Errorf("%s: text = %q, want the windows-1251 text decoded", name, d.Text)
		}
	}
}
