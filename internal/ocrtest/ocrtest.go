package ocrtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Command returns the tesseract program to run, or fails t.
func Command(t testing.TB) string {
	t.Helper()
	if c := os.Getenv("AUTORAG_OCR_COMMAND"); c != "" {
		return c
	}
	if p, err := exec.LookPath("tesseract"); err == nil {
		return p
	}
	if dir, err := os.UserCacheDir(); err == nil {
		p := filepath.Join(dir, "autorag", "tesseract", "tesseract")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Fatal("tesseract not found: run `make ocr` (it installs Debian's tesseract-ocr and tesseract-ocr-eng, or unpacks them into the user cache)")
	return ""
}
