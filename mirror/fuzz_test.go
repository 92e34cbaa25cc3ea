package mirror

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/unicode/norm"
)

func FuzzParse(f *testing.F) {
	f.Add("a.md", []byte("---\ntitle: x\ntags: [a, b]\n---\n# H\nbody\r\n"))
	f.Add("a.txt", []byte("\xef\xbb\xbfcafe\u0301\r\x80"))
	f.Add("a.go", []byte("package x\x00"))
	f.Add("b.md", []byte("---\n&a [*a, *a]\n---\n"))
	f.Fuzz(func(t *testing.T, path string, raw []byte) {
		d, err := Parse(path, raw)
		if err != nil {
			return
		}
		if !utf8.ValidString(d.Text) || strings.ContainsRune(d.Text, '\r') || !norm.NFC.IsNormalString(d.Text) {
			t.Fatalf("Text not normalized: %q", d.Text)
		}
		if d.LineOffset < 0 || d.LineOffset > strings.Count(string(raw), "\n")+strings.Count(string(raw), "\r")+1 {
			t.Fatalf("LineOffset %d out of range", d.LineOffset)
		}
		got, err := DecodeDoc(d.Encode())
		if err != nil {
			t.Fatalf("DecodeDoc(Encode): %v", err)
		}
		if diff := cmp.Diff(d, got); diff != "" {
			t.Fatalf("round trip (-want +got):\n%s", diff)
		}
	})
}

func FuzzDecodeDoc(f *testing.F) {
	f.Add((&Doc{Parser: "markdown@2", Title: "T", Tags: []string{"a"}, Lang: "markdown", LineOffset: 3, Text: "x"}).Encode())
	f.Add([]byte("ARMD\x01\x00\x00\x00\x00\x00\x00"))
	f.Add([]byte("ARMD\x01\xff\xff\xff\xff\x0f"))
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := DecodeDoc(b)
		if err != nil {
			return
		}
		// The encoding is canonical: what decodes re-encodes to itself.
		if enc := d.Encode(); !bytes.Equal(enc, b) {
			t.Fatalf("re-encoding differs:\n in %q\nout %q", b, enc)
		}
	})
}

// FuzzManifest fuzzes the manifest body: the checksum is appended by the
// harness so that mutations reach the decoder instead of stopping at the
// checksum test.
func FuzzManifest(f *testing.F) {
	body := func(m *Manifest) []byte {
		b := m.encode()
		return b[:len(b)-len(Hash{})]
	}
	f.Add(body(&Manifest{}))
	f.Add(body(sampleManifest(3)))
	f.Add([]byte("ARMF\x01\x01\x06text@1\xff\xff\xff\xff\x0f"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sum := HashBytes(data)
		m, err := decodeManifest(append(data[:len(data):len(data)], sum[:]...))
		if err != nil {
			return
		}
		if err := m.checkSorted(); err != nil {
			t.Fatalf("decoded manifest fails its own invariant: %v", err)
		}
		again, err := decodeManifest(m.encode())
		if err != nil {
			t.Fatalf("re-decode: %v", err)
		}
		if diff := cmp.Diff(m.Entries, again.Entries); diff != "" {
			t.Fatalf("round trip (-want +got):\n%s", diff)
		}
	})
}
