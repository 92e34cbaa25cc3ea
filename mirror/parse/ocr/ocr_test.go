package ocr

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseVersion(t *testing.T) {
	for _, c := range []struct {
		out, want string
		ok        bool
	}{
		{"tesseract 5.3.0\n leptonica-1.82.0\n", "5.3.0", true},
		{"tesseract v5.4.1-12-gabc\n", "5.4.1-12-gabc", true},
		{"tesseract\n", "", false},
		{"Tesseract Open Source OCR Engine\n", "", false},
		{"", "", false},
	} {
		got, ok := parseVersion([]byte(c.out))
		if got != c.want || ok != c.ok {
			t.Errorf("parseVersion(%q) = %q, %v; want %q, %v", c.out, got, ok, c.want, c.ok)
		}
	}
}

// fake writes a program that answers --version and --list-langs.
func fake(t *testing.T, version, langs string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "tesseract")
	script := "#!/bin/sh\ncase \"$1\" in --version) printf '" + version + "\\n';; --list-langs) printf 'List of available languages (1):\\n" + langs + "\\n';; *) exit 3;; esac\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// Find names the engine by its version, and refuses, with the command
// that installs what is missing, a program that is absent, that prints no
// version or that has no English data.
func TestFind(t *testing.T) {
	e, err := Find(context.Background(), fake(t, "tesseract 5.3.0", "eng"))
	if err != nil || e.Name() != "tesseract@5.3.0" {
		t.Fatalf("Find = %v, %v", e, err)
	}
	for _, c := range []struct{ command, hint string }{
		{filepath.Join(t.TempDir(), "none"), InstallHint},
		{fake(t, "something else", "eng"), "no tesseract version"},
		{fake(t, "tesseract 5.3.0", "osd"), "apt-get install tesseract-ocr-eng"},
	} {
		_, err := Find(context.Background(), c.command)
		if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), c.hint) {
			t.Errorf("Find(%s) = %v, want ErrUnavailable with %q", c.command, err, c.hint)
		}
	}
}
