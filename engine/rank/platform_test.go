package rank

import (
	"math"
	"reflect"
	"testing"
)

func TestPlatform(t *testing.T) {
	for p, want := range map[string]string{
		"win/core.c":          "windows",
		"src/unix/linux.c":    "linux",
		"unix/bsd-ifaddrs.c":  "bsd",
		"unix/os390.c":        "zos",
		"exec_windows.go":     "windows",
		"command_win.go":      "windows",
		"unix/core.c":         "",
		"ui/windows.lua":      "",
		"threadpool.c":        "",
		"internal/winapi.h":   "",
		"darwin/Info.plist":   "darwin",
		"lib/ios/Router.m":    "darwin",
		"pkg/linuxkit/run.go": "",
	} {
		if got := Platform(p); got != want {
			t.Errorf("Platform(%s) = %q, want %q", p, got, want)
		}
	}
	if got := AskedPlatforms("file watching with inotify on Linux or Windows"); !reflect.DeepEqual(got, map[string]bool{"linux": true, "windows": true}) {
		t.Errorf("AskedPlatforms = %v", got)
	}
}

func TestImplemented(t *testing.T) {
	got := Implemented([]string{"include/idna.h", "src/idna.c", "queue.h", "json.hpp", "src/util.cpp", "include/util.hpp"})
	if !reflect.DeepEqual(got, map[string]bool{"include/idna.h": true, "include/util.hpp": true}) {
		t.Errorf("Implemented = %v", got)
	}
}

// A Windows file and a header fall below the file the query asks for
// (the same base score), unless the query names Windows.
func TestCodeRerankVariants(t *testing.T) {
	ranking := []Fused{
		{ID: cid("win/fs.c", 0), Score: 1.0},
		{ID: cid("idna.h", 0), Score: 0.99},
		{ID: cid("unix/fs.c", 0), Score: 0.95},
		{ID: cid("idna.c", 0), Score: 0.9},
	}
	q := Query{Text: "file system operations and domain names", IsCode: func(string) bool { return true }}
	got := ids(CodeRerank(ranking, q, func(string) []string { return nil }))
	at := map[string]int{}
	for i, id := range got {
		at[id] = i
	}
	if at[cid("unix/fs.c", 0)] > at[cid("win/fs.c", 0)] || at[cid("idna.c", 0)] > at[cid("idna.h", 0)] {
		t.Errorf("ranking %v: the Windows file or the header leads", got)
	}
	q.Text = "file system operations on Windows"
	if got := ids(CodeRerank(ranking, q, func(string) []string { return nil })); got[0] != cid("win/fs.c", 0) {
		t.Errorf("a query that names Windows: %v", got)
	}
}

func TestNamedTypes(t *testing.T) {
	stem := func(w string) string {
		if w == "how" || w == "the" {
			return ""
		}
		return w
	}
	got := NamedTypes("How Applicative combines the Job, HTTP and StateFlow in Go", stem)
	if !reflect.DeepEqual(got, []string{"Applicative", "Job"}) {
		t.Errorf("NamedTypes = %q", got)
	}
}

// A question that names a type in words prefers the chunk that defines
// it, by half what an identifier gives.
func TestCodeRerankNamedType(t *testing.T) {
	ranking := []Fused{
		{ID: cid("cats/Commutative.scala", 0), Score: 1.0},
		{ID: cid("cats/Laws.scala", 0), Score: 0.8},
	}
	defs := map[string][]string{cid("cats/Laws.scala", 0): {"Applicative"}}
	got := CodeRerank(ranking, Query{Text: "how Applicative combines independent effects", IsCode: func(string) bool { return true }},
		func(id string) []string { return defs[id] })
	if got[0].ID != cid("cats/Laws.scala", 0) || got[0].Code.Def != NamedCredit {
		t.Errorf("ranking %v, def %g", ids(got), got[0].Code.Def)
	}
}

func TestNameRarity(t *testing.T) {
	paths := []string{"json.hpp", "json.hpp", "detail/json_sax.hpp", "detail/to_json.hpp", "detail/input/lexer.hpp"}
	rare := NameRarity(paths, nil)
	// 4 files: "json" in 3 of them, "lexer" in 1.
	if got, want := rare("json"), 1-RarityWeight*(1-math.Log(4.0/3)/math.Log(4)); math.Abs(got-want) > 1e-12 {
		t.Errorf("rarity of json %g, want %g", got, want)
	}
	if rare("lexer") != 1 || rare("absent") != 1 {
		t.Errorf("a word of one file (or none) weighs 1: %g %g", rare("lexer"), rare("absent"))
	}
	q := NewPathQuery("JSON lexer", nil)
	lex, _ := PathMatchRare(q, "detail/input/lexer.hpp", nil, rare)
	js, _ := PathMatchRare(q, "json.hpp", nil, rare)
	if !(lex > js) {
		t.Errorf("the rarer name does not lead: lexer %g, json %g", lex, js)
	}
}
