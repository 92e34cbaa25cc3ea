package syntax

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The embedded module is the one build.sh recorded in treesitter.sha256.
func TestModuleDigest(t *testing.T) {
	want, _, _ := strings.Cut(moduleSHA256, " ")
	got, err := moduleDigest()
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("treesitter.wasm.gz holds a module of sha256 %s, treesitter.sha256 says %s: rebuild with make treesitter", got, want)
	}
}

// The module links exactly the grammars Languages names, and each
// language's rules name only node types and fields its grammar has.
func TestLanguagesMatchModule(t *testing.T) {
	ctx, in := testInstance(t)
	defer in.close(ctx)
	var linked []string
	for name := range in.langs {
		linked = append(linked, name)
	}
	slices.Sort(linked)
	want := slices.Sorted(slices.Values(Languages()))
	if !slices.Equal(linked, want) {
		t.Fatalf("module links %v, Languages says %v", linked, want)
	}
	for _, l := range Languages() {
		if _, err := in.rules(ctx, in.langs[l], l); err != nil {
			t.Errorf("%s: %v", l, err)
		}
		if Version(l) == "" {
			t.Errorf("%s: no version", l)
		}
	}
}

func TestUnsupported(t *testing.T) {
	if _, err := Parse(context.Background(), "cobol", []byte("x")); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("Parse(cobol) = %v, want ErrUnsupported", err)
	}
	if v := Version("cobol"); v != "" {
		t.Fatalf("Version(cobol) = %q, want empty", v)
	}
}

func TestLangOf(t *testing.T) {
	for path, want := range map[string]string{
		"a/b/c.py": "python", "x.PY": "python", "web/app.mjs": "javascript", "src/lib.rs": "rust",
		"ui/App.tsx": "tsx", "api.d.ts": "typescript", "include/list.h": "cpp", "src/geo.hpp": "cpp",
		"lib/tasks/Rakefile": "ruby", "build.gradle.kts": "kotlin", `C:\src\Main.cs`: "csharp",
		"main.go": "go", "README.md": "", "Makefile": "", "noext": "",
	} {
		if got := LangOf(path); got != want {
			t.Errorf("LangOf(%q) = %q, want %q", path, got, want)
		}
		if got := LangOf(path); got != "" && !slices.Contains(Languages(), got) {
			t.Errorf("LangOf(%q) = %q, not in Languages", path, got)
		}
	}
}

// Languages, LangOf and Version never start the module: a process that
// only asks which language a file is (a cold query) pays nothing. Run in a
// fresh process, since another test may have started it in this one.
func TestLazy(t *testing.T) {
	if os.Getenv("SYNTAX_LAZY_CHILD") == "1" {
		_ = Languages()
		_ = LangOf("x.py")
		_ = Version("python")
		if _, err := Parse(context.Background(), "cobol", nil); !errors.Is(err, ErrUnsupported) {
			t.Fatal(err)
		}
		if started() {
			t.Fatal("module started without a Parse")
		}
		if _, err := Parse(context.Background(), "python", []byte("def f(): pass\n")); err != nil {
			t.Fatal(err)
		}
		if !started() {
			t.Fatal("module not started by Parse")
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestLazy$", "-test.count=1")
	cmd.Env = append(os.Environ(), "SYNTAX_LAZY_CHILD=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

// The unzipped module is kept in the cache directory and read from there
// when whole; a copy of the wrong length or content is replaced by the
// embedded module unzipped.
func TestModuleCopy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.wasm")
	want := mustUnzip(t)
	check := func(stage string) {
		t.Helper()
		got, release, err := moduleBytesAt(path)
		if err != nil {
			t.Fatal(stage, err)
		}
		same := bytes.Equal(got, want)
		release()
		if !same {
			t.Fatalf("%s: moduleBytesAt returned other bytes than the embedded module", stage)
		}
		onDisk, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(onDisk, want) {
			t.Fatalf("%s: the copy on disk is not the module (%v)", stage, err)
		}
	}
	check("no copy")
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	check("whole copy")
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) {
		t.Fatal("a whole copy was written again, not read")
	}
	flipped := slices.Clone(want)
	flipped[len(flipped)/2] ^= 1
	if err := os.WriteFile(path, flipped, 0o644); err != nil {
		t.Fatal(err)
	}
	check("a byte flipped")
	if err := os.WriteFile(path, want[:len(want)-1], 0o644); err != nil {
		t.Fatal(err)
	}
	check("truncated")
}

func mustUnzip(t *testing.T) []byte {
	zr, err := gzip.NewReader(bytes.NewReader(moduleGz))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// testInstance starts the module and a new instance of it, for tests that
// need an instance of their own (the caller closes it).
func testInstance(t *testing.T) (context.Context, *instance) {
	t.Helper()
	ctx := context.Background()
	e, err := theEngine(ctx)
	if err != nil {
		t.Fatal(err)
	}
	in, err := newInstance(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	return ctx, in
}
