package analyze

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestDetect(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"german", "Die Verteidigung der Panthers ließ in der ganzen Saison nur 308 Punkte zu und war damit die sechstbeste der Liga.", "de"},
		{"spanish", "La defensa de los Panthers cedió solo 308 puntos en toda la temporada, y fue la sexta mejor de la liga.", "es"},
		{"french", "La défense des Panthers n'a concédé que 308 points pendant toute la saison, ce qui la place au sixième rang de la ligue.", "fr"},
		{"english", "The Panthers defense gave up just 308 points over the whole season, which ranked sixth in the league.", "en"},
		{"go code", "func (c *Cache) Get(key string) (V, bool) {\n\tc.mu.Lock()\n\tdefer c.mu.Unlock()\n\te, ok := c.items[key]\n}", "en"},
		{"chinese with a few latin words", "OpenTelemetry 是一个可观测性框架和工具包，旨在创建和管理遥测数据，例如 traces、metrics 和 logs。它与供应商和工具无关。", "en"},
		{"ukrainian is not russian", "Це документація про те, як налаштувати колектор і які є компоненти в його конфігурації.", "en"},
		{"russian", "Это документация о том, как настроить коллектор и какие есть компоненты в его конфигурации.", "ru"},
		{"empty", "", "en"},
	}
	for _, c := range cases {
		if got := Detect(c.text); got != c.want {
			t.Errorf("%s: Detect = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestDetectOrFallsBackOnWeakEvidence(t *testing.T) {
	// A heading and a command say nothing: the file's language stands.
	if got := DetectOr("## Installation\n\n    go install ./...", "de"); got != "de" {
		t.Errorf("DetectOr(weak evidence, de) = %q, want de", got)
	}
	if got := DetectOr("The quick brown fox jumps over the lazy dog and runs into the woods.", "de"); got != "en" {
		t.Errorf("DetectOr(English prose, de) = %q, want en", got)
	}
	if got := DetectQuery("Wie viele Punkte gab die Verteidigung ab?"); got != "de" {
		t.Errorf("DetectQuery(German question) = %q, want de", got)
	}
	if got := DetectQuery("xylophone zeppelin"); got != "" {
		t.Errorf("DetectQuery(no stop words) = %q, want empty", got)
	}
}

func termsOf(code, text string) []string {
	var out []string
	for _, tok := range ForLanguage(code).Analyze([]byte(text)) {
		out = append(out, string(tok.Term))
	}
	return out
}

func TestGermanChainStemsAndDropsStopWords(t *testing.T) {
	got := termsOf("de", "Die Häuser und das Haus")
	if want := []string{"haus", "haus"}; !slices.Equal(got, want) {
		t.Errorf("German terms = %q, want %q", got, want)
	}
	// The English chain keeps the German stop words and does not stem
	// the plural: the gap per-language analysis closes.
	if en := termsOf("en", "Die Häuser und das Haus"); slices.Contains(en, "haus") && len(en) == 2 {
		t.Errorf("English chain analyzed German like German: %q", en)
	}
	if got := termsOf("es", "las canciones de la cantante"); !slices.Equal(got, []string{"cancion", "cantant"}) {
		t.Errorf("Spanish terms = %q", got)
	}
}

func TestChainsKeepIdentifierSplitting(t *testing.T) {
	got := termsOf("de", "Die Funktion getUserName liefert")
	for _, want := range []string{"getusernam", "get", "user", "nam"} {
		if !slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, want) }) {
			t.Errorf("German terms %q lack a term starting with %q", got, want)
		}
	}
}

func TestTermsInUnion(t *testing.T) {
	got := TermsIn("Häuser", []string{"en", "de"})
	if !slices.Equal(got, []string{"häuser", "haus"}) {
		t.Errorf("TermsIn(en, de) = %q, want the English and the German term", got)
	}
	if got, want := TermsIn("running dogs", nil), Terms("running dogs"); !slices.Equal(got, want) {
		t.Errorf("TermsIn with no language = %q, want the English terms %q", got, want)
	}
}

func TestEnglishUnchanged(t *testing.T) {
	// The English chain through ForLanguage is the shared analyzer itself:
	// indexes built before multilingual analysis keep their terms.
	if ForLanguage("en") != Analyzer() || ForLanguage("xx") != Analyzer() {
		t.Error("ForLanguage(en or unknown) is not the English analyzer")
	}
	if MultiVersion == Version || !strings.Contains(MultiVersion, Version) {
		t.Errorf("MultiVersion %q must differ from and name Version %q", MultiVersion, Version)
	}
}

// TestFirstDetectQueryBuildsNothing runs in a fresh process (the test
// binary again) the first DetectQuery of the process, as every hybrid
// query does, and counts its heap allocations: the detector reads a
// compiled-in table, and no language's chain is built for it (building
// them all cost about 3 ms a query process).
func TestFirstDetectQueryBuildsNothing(t *testing.T) {
	if os.Getenv("ANALYZE_FIRST_DETECT") == "1" {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		got := DetectQuery("Wie viele Punkte gab die Verteidigung ab?")
		runtime.ReadMemStats(&after)
		fmt.Printf("first-detect %s %d\n", got, after.Mallocs-before.Mallocs)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestFirstDetectQueryBuildsNothing$", "-test.count=1")
	cmd.Env = append(os.Environ(), "ANALYZE_FIRST_DETECT=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	var lang string
	var allocs int
	if _, err := fmt.Sscanf(string(out[bytes.Index(out, []byte("first-detect")):]), "first-detect %s %d", &lang, &allocs); err != nil {
		t.Fatalf("child output %q: %v", out, err)
	}
	if lang != "de" {
		t.Errorf("first DetectQuery of a German question = %q, want de", lang)
	}
	if allocs > 10 {
		t.Errorf("the first DetectQuery of a process made %d heap allocations, want at most 10: it builds tables", allocs)
	}
}
