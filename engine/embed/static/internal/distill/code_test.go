package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const licence = "// Copyright 2026 The Authors. All rights reserved.\n// Use of this source code is governed by a BSD-style licence.\n"

// goSource is a licence header, a table of numbers and two functions,
// the second (named after name) longer than a passage.
func goSource(name string) string {
	var b strings.Builder
	b.WriteString(licence + "\npackage pkg\n\n")
	b.WriteString("var table = []int{\n" + strings.Repeat("\t0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,\n", 20) + "}\n\n")
	b.WriteString("// Open opens the named file for reading.\nfunc Open(name string) (*File, error) {\n\treturn OpenFile(name, O_RDONLY, 0)\n}\n\n")
	b.WriteString("func " + name + "Long() {\n" + strings.Repeat("\tcallSomethingWithAName(argument, another)\n", 40) + "}\n")
	return b.String()
}

func TestCodePassages(t *testing.T) {
	ps := codePassages(goSource("os"))
	var open, long int
	for _, p := range ps {
		if len(p) > passageChars {
			t.Errorf("passage of %d bytes, want ≤ %d", len(p), passageChars)
		}
		if strings.Contains(p, "0x01") {
			t.Errorf("the table of numbers was kept: %q", p)
		}
		if strings.Contains(p, "func Open(name string) (*File, error) {\n\treturn") {
			open++
		}
		if strings.Contains(p, "callSomethingWithAName") {
			long++
		}
	}
	if open != 1 || long < 2 {
		t.Errorf("Open in %d passages (want 1), the long function in %d (want ≥ 2): %q", open, long, ps)
	}
}

// TestReadPassagesTakesCode reads a tree of two source files sharing a
// licence header, a Markdown file and a file of no known kind.
func TestReadPassagesTakesCode(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.go":     goSource("a"),
		"b.go":     goSource("b"),
		"notes.md": strings.Repeat("Some prose about the files. ", 10),
		"data.bin": strings.Repeat("func Skipped() {} ", 10),
	}
	for name, s := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ps, err := readPassages(dir, 100)
	if err != nil {
		t.Fatal(err)
	}
	var header, prose, skipped int
	for _, p := range ps {
		header += strings.Count(p, "Copyright 2026")
		prose += strings.Count(p, "Some prose")
		skipped += strings.Count(p, "Skipped")
	}
	if header != 0 && header != 1 {
		t.Errorf("the shared header is in %d passages, want at most 1", header)
	}
	if prose == 0 || skipped != 0 {
		t.Errorf("prose passages %d (want some), passages of data.bin %d (want 0)", prose, skipped)
	}
}
