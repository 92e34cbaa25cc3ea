package chunk

import (
	"strings"
	"testing"
)

// sections returns the label of every block of src.
func sections(lang, src string) []string {
	var out []string
	blocks, _ := langBlocks(newLines(src), lang, nil)
	for _, b := range blocks {
		out = append(out, b.sig)
	}
	return out
}

// TestChunkSectionIsDeclaration: a chunk's Section is the name of the
// declaration it starts with, not a line of code.
func TestChunkSectionIsDeclaration(t *testing.T) {
	src := "package p\n\n" + "// Get returns it.\nfunc (s *Store) Get(id string) (*Doc, error) {\n" + strings.Repeat("\tx := 1\n", 40) + "}\n"
	chunks := SplitLang(KindCode, "go", src, Options{Size: 200, Overlap: 0})
	if len(chunks) < 2 || chunks[1].Section != "func (s *Store) Get" {
		t.Fatalf("chunks = %+v", chunks)
	}
}

func TestCodeSectionsNameDeclarations(t *testing.T) {
	tests := []struct {
		lang, src string
		want      []string
	}{
		{"go", `package store

import "os"

// Store keeps documents.
type Store struct{ dir string }

// Get returns the document.
func (s *Store) Get(id string) (*Doc, error) {
	return nil, os.ErrNotExist
}

var (
	ErrA = 1
	ErrB = 2
)
`, []string{"package store", `import "os"`, "type Store", "func (s *Store) Get", "var (ErrA, ErrB)"}},
		{"python", `import os


class Store:
    """Keeps documents."""

    def get(self, key):
        return self.items[key]

    @property
    def size(self):
        return len(self.items)


async def main():
    pass
`, []string{"import os", "class Store", "class Store > def get", "class Store > def size", "def main"}},
		{"rust", `use std::io;

/// A store.
pub struct Store {
    dir: String,
}

impl Store {
    pub fn get(&self, id: &str) -> Option<Doc> {
        None
    }

    fn put(&mut self) {}
}
`, []string{"use std::io;", "struct Store", "impl Store", "impl Store > fn put"}},
		{"typescript", `import x from "y";

export class Store {
  private items = new Map();

  get(id: string): Doc {
    return this.items.get(id);
  }
}

export const load = async (p: string) => {
  return p;
};
`, []string{"import x from \"y\";", "class Store", "class Store > get", "const load"}},
		{"java", `package a;

public class Store {
    private int n;

    public Doc get(String id) {
        return null;
    }
}
`, []string{"package a;", "class Store", "class Store > public Doc get"}},
		{"c", `#include <stdio.h>

struct store {
    int n;
};

static int parse_header(const char *p)
{
    return 0;
}
`, []string{"#include <stdio.h>", "struct store", "static int parse_header"}},
	}
	for _, tt := range tests {
		got := sections(tt.lang, tt.src)
		if strings.Join(got, " | ") != strings.Join(tt.want, " | ") {
			t.Errorf("%s sections:\n got %q\nwant %q", tt.lang, got, tt.want)
		}
	}
}

// TestGoSyntaxErrorFallsBack: a Go file that does not parse is cut by the
// generic code rule, never dropped.
func TestGoSyntaxErrorFallsBack(t *testing.T) {
	src := "package x\n\nfunc broken( {\n\treturn\n}\n"
	got := SplitLang(KindCode, "go", src, Options{})
	if len(got) != 1 || got[0].Text != strings.TrimSpace(src) {
		t.Errorf("chunks = %+v", got)
	}
}

func FuzzSplitLang(f *testing.F) {
	f.Add("go", "package x\n\nfunc (s *S) M() {}\n")
	f.Add("python", "class A:\n    def f(self):\n        pass\n")
	f.Add("rust", "impl<T> X for Y<T> where T: Z {\n    fn a() {}\n}\n")
	f.Fuzz(func(t *testing.T, lang, src string) {
		o := Options{Size: 80, Overlap: 10}
		chunks := SplitLang(KindCode, lang, src, o)
		checkChunks(t, src, o, chunks)
	})
}
