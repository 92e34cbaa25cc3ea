package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFlagsWhereTheyAct checks that each command's help lists only the
// setting flags it uses, and that the query help names the glob argument
// instead of showing `*` as a type.
func TestFlagsWhereTheyAct(t *testing.T) {
	index := []string{"--chunk-size", "--chunk-overlap", "--max-file-size", "--embedder"}
	search := []string{"--bm25-k1", "--bm25-b", "--fusion", "--fusion-alpha"}
	cases := []struct {
		args      []string
		has, hasn []string
	}{
		{[]string{"refresh", "--help"}, index, search},
		{[]string{"index", "rebuild", "--help"}, index, search},
		{[]string{"query", "--help"}, search, index},
		{[]string{"status", "--help"}, nil, append(index, search...)},
		{[]string{"index", "verify", "--help"}, nil, append(index, search...)},
		{[]string{"index", "reset", "--help"}, nil, append(index, search...)},
		{[]string{"config", "--help"}, append(index, search...), nil},
	}
	for _, c := range cases {
		out := mustOK(t, c.args...).stdout
		for _, f := range c.has {
			if !strings.Contains(out, f+" ") {
				t.Errorf("autorag %s does not show %s:\n%s", strings.Join(c.args, " "), f, out)
			}
		}
		for _, f := range c.hasn {
			if strings.Contains(out, f+" ") {
				t.Errorf("autorag %s shows %s, which it does not use:\n%s", strings.Join(c.args, " "), f, out)
			}
		}
	}
	q := mustOK(t, "query", "--help").stdout
	if !strings.Contains(q, "--path pattern") || strings.Contains(q, "--path *") {
		t.Errorf("query help should show --path pattern:\n%s", q)
	}
	// A setting flag on a command that does not use it is refused.
	if r := cli(t, nil, "status", "--chunk-size", "10"); r.code != exitUsage {
		t.Errorf("status --chunk-size: exit %d, want %d", r.code, exitUsage)
	}
}

// TestConfigSources checks that `autorag config` reports each setting's
// value and where it came from, with the documented precedence.
func TestConfigSources(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, ".autorag/config.toml", "chunk_size = 800\nchunk_overlap = 50\nbm25_k1 = 1.5\n")
	env := []string{"AUTORAG_CHUNK_OVERLAP=60", "AUTORAG_FUSION=rrf"}
	r := cli(t, env, "--root", root, "config", "--json", "--bm25-k1", "1.1")
	if r.code != 0 {
		t.Fatalf("config: exit %d: %s", r.code, r.stderr)
	}
	m := r.json(t)
	got := map[string]string{}
	for _, s := range m["settings"].([]any) {
		s := s.(map[string]any)
		got[s["key"].(string)] = s["value"].(string) + " " + s["source"].(string)
	}
	want := map[string]string{
		"chunk_size":    "800 config",
		"chunk_overlap": "60 env",
		"bm25_k1":       "1.1 flag",
		"bm25_b":        "0.4 default",
		"fusion":        "rrf env",
		"embedder":      "local default",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s = %q, want %q", k, got[k], w)
		}
	}
	if rt := m["root"].(map[string]any); rt["source"] != "flag" || rt["value"] != root {
		t.Errorf("root = %v, want %s from the flag", rt, root)
	}
	text := mustOK(t, "--root", root, "config").stdout
	if !strings.Contains(text, "chunk_size") || !strings.Contains(text, filepath.Join(root, ".autorag", "config.toml")) {
		t.Errorf("config text lacks the config file source:\n%s", text)
	}
}

// TestConfigOpenAIHidesKey checks that the openai settings are listed when
// that embedder is configured, and that the API key itself never is.
func TestConfigOpenAIHidesKey(t *testing.T) {
	root := t.TempDir()
	env := []string{"AUTORAG_EMBEDDER=openai", "OPENAI_API_KEY=sk-very-secret", "OPENAI_BASE_URL=http://127.0.0.1:1/v1"}
	r := cli(t, env, "--root", root, "config")
	if r.code != 0 {
		t.Fatalf("config: exit %d: %s", r.code, r.stderr)
	}
	if strings.Contains(r.stdout+r.stderr, "sk-very-secret") {
		t.Fatalf("the API key was printed:\n%s", r.stdout)
	}
	for _, want := range []string{"openai_api_key", "(set)", "openai_base_url", "http://127.0.0.1:1/v1"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("config output lacks %q:\n%s", want, r.stdout)
		}
	}
}

// TestBadSettingNamesItsSource checks that a malformed setting is a usage
// error that says where the bad value came from.
func TestBadSettingNamesItsSource(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".autorag"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, ".autorag/config.toml", "chunk_size = \"big\"\n")
	r := cli(t, nil, "--root", root, "refresh")
	if r.code != exitUsage || !strings.Contains(r.stderr, "chunk_size in "+filepath.Join(root, ".autorag", "config.toml")) {
		t.Errorf("bad config value: exit %d, stderr %q; want exit 2 naming the file", r.code, r.stderr)
	}
	writeFile(t, root, ".autorag/config.toml", "chunk_size = 1000\n")
	r = cli(t, []string{"AUTORAG_BM25_B=x"}, "--root", root, "query", "anything")
	if r.code != exitUsage || !strings.Contains(r.stderr, `AUTORAG_BM25_B="x"`) {
		t.Errorf("bad env value: exit %d, stderr %q; want exit 2 naming the variable", r.code, r.stderr)
	}
}

// TestErrorsSayWhatToDoNext checks the hint after failures, in text and
// in the JSON envelope.
func TestErrorsSayWhatToDoNext(t *testing.T) {
	root := t.TempDir()
	r := cli(t, nil, "--root", root, "query", "anything")
	if r.code != exitUsage || !strings.Contains(r.stderr, "autorag refresh") {
		t.Errorf("query without an index: exit %d, %q; want a hint to run autorag refresh", r.code, r.stderr)
	}
	// A provider that is not there: exit 3, the connection hint, the
	// generic hint that the committed index still serves.
	env := []string{"AUTORAG_EMBEDDER=openai", "OPENAI_BASE_URL=http://127.0.0.1:1/v1", "OPENAI_EMBEDDING_MODEL=m", "OPENAI_EMBEDDING_TIMEOUT=2s"}
	writeFile(t, root, "a.md", "# A\n\ntext\n")
	r = cli(t, env, "--root", root, "refresh")
	if r.code != exitFailed || !strings.Contains(r.stderr, "running and reachable") || !strings.Contains(r.stderr, "autorag: hint: ") {
		t.Errorf("unreachable provider: exit %d, %q", r.code, r.stderr)
	}
	// The hint states what is true for the root: nothing was ever committed.
	m := cli(t, env, "--root", root, "refresh", "--json").json(t)
	if e := m["error"].(map[string]any); e["code"] != "failed" || !strings.Contains(e["hint"].(string), "no index yet") || strings.Contains(e["hint"].(string), "still served") {
		t.Errorf("JSON error without the no-index hint: %v", m)
	}
	// Once an index is committed, a failed refresh leaves it served.
	mustOK(t, "--root", root, "refresh", "-q")
	m = cli(t, env, "--root", root, "refresh", "--json").json(t)
	if e := m["error"].(map[string]any); e["code"] != "failed" || !strings.Contains(e["hint"].(string), "is still served") {
		t.Errorf("JSON error without the still-served hint: %v", m)
	}
}
