package syntax

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the goldens under testdata/golden")

// Every sample under testdata/samples parses to the definitions its golden
// lists: name, kind, lines, nesting and label. A definition that goes
// missing, changes kind or spans other lines fails the test.
func TestGolden(t *testing.T) {
	samples, err := filepath.Glob("testdata/samples/*")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, path := range samples {
		lang := LangOf(path)
		seen[lang] = true
		t.Run(filepath.Base(path), func(t *testing.T) {
			if lang == "" {
				t.Fatalf("no language for %s", path)
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			ds, err := Parse(context.Background(), lang, src)
			if err != nil {
				t.Fatal(err)
			}
			checkSpans(t, src, ds)
			got := render(ds)
			golden := filepath.Join("testdata", "golden", filepath.Base(path)+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("definitions of %s differ from %s (go test -run TestGolden -update rewrites it)\ngot:\n%s\nwant:\n%s", path, golden, got, want)
			}
		})
	}
	for _, l := range Languages() {
		if !seen[l] {
			t.Errorf("no sample under testdata/samples for %s", l)
		}
	}
}

// render writes one line per definition, indented by its depth:
// kind name lines "label".
func render(ds []Def) string {
	var b strings.Builder
	for i, d := range ds {
		depth := 0
		for p := d.Parent; p >= 0; p = ds[p].Parent {
			depth++
		}
		fmt.Fprintf(&b, "%s%s %s %d-%d %q\n", strings.Repeat("  ", depth), d.Kind, d.Name, d.StartLine, d.EndLine, d.Label)
		_ = i
	}
	return b.String()
}

// checkSpans checks what holds for any parse: spans inside the source and
// in order, a parent before and around its children, lines agreeing with
// bytes, the name inside the definition.
func checkSpans(t *testing.T, src []byte, ds []Def) {
	t.Helper()
	for i, d := range ds {
		if d.StartByte < 0 || d.StartByte > d.EndByte || d.EndByte > len(src) {
			t.Errorf("def %d %q: span %d-%d outside 0-%d", i, d.Name, d.StartByte, d.EndByte, len(src))
			continue
		}
		if i > 0 && ds[i-1].StartByte > d.StartByte && d.Parent != i-1 {
			t.Errorf("def %d %q starts before def %d", i, d.Name, i-1)
		}
		if want := 1 + strings.Count(string(src[:d.StartByte]), "\n"); d.StartLine != want {
			t.Errorf("def %d %q: StartLine %d, want %d", i, d.Name, d.StartLine, want)
		}
		if d.Parent >= i {
			t.Errorf("def %d %q: parent %d not before it", i, d.Name, d.Parent)
		} else if p := d.Parent; p >= 0 && (ds[p].StartByte > d.StartByte || ds[p].EndByte < d.EndByte) {
			t.Errorf("def %d %q: not inside its parent %q", i, d.Name, ds[p].Name)
		}
		if d.Name == "" || !strings.Contains(string(src[d.StartByte:d.EndByte]), d.Name) {
			t.Errorf("def %d: name %q not in its span", i, d.Name)
		}
	}
}

// A label names the definition, without the annotations and attributes
// that lead its node.
func TestStripAnnotations(t *testing.T) {
	for in, want := range map[string]string{
		"@Override public V get":                             "public V get",
		"@ThreadSafe public class LruCache":                  "public class LruCache",
		`@SuppressWarnings("a, b") @Deprecated static int f`: "static int f",
		"@JvmStatic fun register":                            "fun register",
		"[Serializable] public class LruCache":               "public class LruCache",
		"[A(typeof(B[]))] [C] void M":                        "void M",
		"#[Attribute] class Router":                          "class Router",
		"#define MAX_NODES":                                  "#define MAX_NODES",
		"@interface Marker":                                  "@interface Marker",
		"@app.get":                                           "@app.get",
		"[Broken":                                            "[Broken",
		"class TypeAdapter":                                  "class TypeAdapter",
	} {
		if got := stripAnnotations(in); got != want {
			t.Errorf("stripAnnotations(%q) = %q, want %q", in, got, want)
		}
	}
}
