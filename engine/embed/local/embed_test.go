package local

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/engine/embed/local/internal/wordtab"
)

func embedOne(t testing.TB, e *Embedder, text string) []float32 {
	t.Helper()
	v, err := e.Embed(context.Background(), []string{text})
	if err != nil {
		t.Fatal(err)
	}
	return v[0]
}

func cos(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func vnorm(v []float32) float64 { return math.Sqrt(cos(v, v)) }

func TestIdentity(t *testing.T) {
	want := embed.Identity{Provider: "local", Model: Model, Dims: 100}
	if got := New().Identity(); got != want {
		t.Fatalf("Identity() = %+v, want %+v", got, want)
	}
	v, err := NewVariant("logr100+nopc")
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Identity().Model; got != Model+"+logr100+nopc" {
		t.Errorf("variant model %q", got)
	}
	for _, bad := range []string{"", "nope", "sif5+what"} {
		if _, err := NewVariant(bad); err == nil {
			t.Errorf("NewVariant(%q) accepted", bad)
		}
	}
}

func TestTableIntegrity(t *testing.T) {
	tab, err := wordtab.Open(table)
	if err != nil {
		t.Fatal(err)
	}
	if err := tab.Verify(); err != nil {
		t.Fatal(err)
	}
	if tab.Dims() != Dims || tab.Rows() < 50000 {
		t.Fatalf("dims %d, rows %d", tab.Dims(), tab.Rows())
	}
	if w := tab.Word(tab.First()); w != "the" {
		t.Errorf("first word %q, want the", w)
	}
	for _, w := range []string{"car", "automobile", "engine", "protein", "javascript", "cafe"} {
		off, ok := tab.Lookup([]byte(w))
		if !ok || tab.Word(off) != w {
			t.Errorf("Lookup(%q) = %d, %v", w, off, ok)
		}
	}
	for _, w := range []string{"getusername", "Car", "qqqxqqq"} {
		if _, ok := tab.Lookup([]byte(w)); ok {
			t.Errorf("Lookup(%q) found it", w)
		}
	}
}

func TestUnitNormAndEmpty(t *testing.T) {
	e := New()
	texts := []string{"the", "car engine repair", "getUserName", "zzqxv kubectl", "日本語のテキスト",
		strings.Repeat("a", 500), "x", "The The The", "Ünïcödé wörds"}
	vs, err := e.Embed(context.Background(), append(texts, "", "  ... !!! ---"))
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		if n := vnorm(vs[i]); math.Abs(n-1) > 1e-5 {
			t.Errorf("%q: norm %g", text, n)
		}
		if len(vs[i]) != Dims || cap(vs[i]) != Dims {
			t.Errorf("%q: len %d cap %d", text, len(vs[i]), cap(vs[i]))
		}
	}
	for _, v := range vs[len(texts):] {
		if vnorm(v) != 0 {
			t.Errorf("a text without words has norm %g, want 0", vnorm(v))
		}
	}
	if vs, err := e.Embed(context.Background(), nil); err != nil || len(vs) != 0 {
		t.Errorf("Embed(nil) = %v, %v", vs, err)
	}
}

func TestDeterministic(t *testing.T) {
	text := "Statins reduce LDL cholesterol; see parseHTTPServer in net_http.go"
	a := embedOne(t, New(), text)
	b := embedOne(t, New(), text)
	for d := range a {
		if a[d] != b[d] {
			t.Fatalf("component %d: %g then %g", d, a[d], b[d])
		}
	}
}

func TestSemantics(t *testing.T) {
	e := New()
	cases := []struct{ anchor, near, far string }{
		{"car engine repair", "automobile motor fix", "banana bread recipe"},
		{"heart disease risk", "cardiovascular mortality", "football season schedule"},
		{"how to sort a list in python", "python list sorting", "cooking pasta at home"},
		{"getUserName", "get user name", "parse config file"},
		{"parse_config_file", "ParseConfigFile", "get user name"},
		{"kubectl apply", "kubectl get pods", "banana bread"},
	}
	for _, c := range cases {
		a, n, f := embedOne(t, e, c.anchor), embedOne(t, e, c.near), embedOne(t, e, c.far)
		if cn, cf := cos(a, n), cos(a, f); cn <= cf {
			t.Errorf("cos(%q, %q) = %.3f, not above cos(%q) = %.3f", c.anchor, c.near, cn, c.far, cf)
		}
	}
	if c := cos(embedOne(t, e, "getUserName"), embedOne(t, e, "get user name")); c < 0.999 {
		t.Errorf("getUserName vs get user name: cos %.4f, want the same vector", c)
	}
}

func TestOOVFallback(t *testing.T) {
	e := New()
	a := embedOne(t, e, "zxqvplorbt")
	if n := vnorm(a); math.Abs(n-1) > 1e-5 {
		t.Fatalf("unknown word: norm %g", n)
	}
	same := embedOne(t, e, "zxqvplorbts")
	other := embedOne(t, e, "mnbvcxyw")
	if cos(a, same) <= cos(a, other)+0.3 {
		t.Errorf("shared n-grams: cos %.3f vs unrelated %.3f", cos(a, same), cos(a, other))
	}
	noOOV, err := NewVariant(DefaultVariant + "+nooov")
	if err != nil {
		t.Fatal(err)
	}
	if n := vnorm(embedOne(t, noOOV, "zxqvplorbt")); n != 0 {
		t.Errorf("+nooov: unknown word has norm %g", n)
	}
	// The accented and the made-up inflected words below are not in the
	// table, and what they fold or strip to is: they go through the
	// accent and suffix fallbacks.
	for w, known := range map[string]bool{"café": false, "zürich": false, "cafe": true, "zurich": true,
		"automobileses": false, "automobiles": true} {
		if _, ok := e.tab.Lookup([]byte(w)); ok != known {
			t.Fatalf("table has %q: %v, want %v", w, ok, known)
		}
	}
	if c := cos(embedOne(t, e, "Café in Zürich"), embedOne(t, e, "cafe in zurich")); c < 0.999 {
		t.Errorf("accents: cos %.3f", c)
	}
	// Suffix stripping: an unknown inflection lands on its stem.
	if c := cos(embedOne(t, e, "automobileses"), embedOne(t, e, "automobiles")); c < 0.999 {
		t.Errorf("automobileses vs automobiles: cos %.3f", c)
	}
}

func TestConcurrentAndBatchMatchesSingle(t *testing.T) {
	e := New()
	texts := make([]string, 257)
	for i := range texts {
		texts[i] = fmt.Sprintf("document %d about getUserName and protein folding %d times", i, i*7)
	}
	var wg sync.WaitGroup
	results := make([][][]float32, 4)
	for g := range results {
		wg.Go(func() {
			vs, err := e.Embed(context.Background(), texts)
			if err != nil {
				t.Error(err)
			}
			results[g] = vs
		})
	}
	wg.Wait()
	for i, text := range texts {
		want := embedOne(t, e, text)
		for g := range results {
			for d := range want {
				if results[g][i][d] != want[d] {
					t.Fatalf("goroutine %d text %d component %d: %g, alone %g", g, i, d, results[g][i][d], want[d])
				}
			}
		}
	}
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, n := range []int{1, 100} {
		vs, err := New().Embed(ctx, make([]string, n))
		if !errors.Is(err, context.Canceled) || vs != nil {
			t.Errorf("%d texts: got %d vectors, %v", n, len(vs), err)
		}
	}
}

func TestTokens(t *testing.T) {
	cases := []struct {
		in   string
		want []string // token, then its parts after "|"
	}{
		{"getUserName", []string{"getusername|get,user,name"}},
		{"HTTPServer v2", []string{"httpserver|http,server", "v2|v,2"}},
		{"snake_case.dotted-kebab", []string{"snake", "case", "dotted", "kebab"}},
		{"sha256 IDs", []string{"sha256|sha,256", "ids"}},
		{"Ünïcödé ÄBC", []string{"ünïcödé", "äbc"}},
		{"  ... ", nil},
	}
	for _, c := range cases {
		s := newScratch()
		var got []string
		for i := s.nextToken(c.in, 0); i >= 0; i = s.nextToken(c.in, i) {
			tok := string(s.buf)
			if len(s.cuts) > 0 {
				var parts []string
				from := 0
				for _, cut := range append(s.cuts, len(s.buf)) {
					parts = append(parts, string(s.buf[from:cut]))
					from = cut
				}
				tok += "|" + strings.Join(parts, ",")
			}
			got = append(got, tok)
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("tokens(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
