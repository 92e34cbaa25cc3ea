package weaviate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autorag/autorag/engine/backend"
)

// TestNamespacePrefixesEveryName: with a namespace the alias (and so every
// collection and the journal) starts with Autorag_<namespace>_, the id
// being the one the id file keeps; a bad namespace is a usage error.
func TestNamespacePrefixesEveryName(t *testing.T) {
	dir := t.TempDir()
	env := Env{Dir: dir, GenDir: func(g string) string { return filepath.Join(dir, g) }, Namespace: "alice"}
	a, err := IndexAlias(env, nil)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := os.ReadFile(filepath.Join(dir, IDFile))
	if want := "Autorag_alice_" + strings.TrimSpace(string(id)); a != want {
		t.Fatalf("alias %q, want %q", a, want)
	}
	if got, ok := aliasOfCollection(a + "_000000001_a"); !ok || got != a {
		t.Errorf("aliasOfCollection(%s_000000001_a) = %q %v, want %s", a, got, ok, a)
	}
	env.Namespace = ""
	if plain, err := IndexAlias(env, nil); err != nil || plain != "Autorag_"+strings.TrimSpace(string(id)) {
		t.Errorf("without a namespace: %q %v", plain, err)
	}
	for _, bad := range []string{"0123456789abcdef", "al-ice", "al_ice", strings.Repeat("a", 33), "ünï"} {
		env.Namespace = bad
		if _, err := IndexAlias(env, nil); !errors.Is(err, backend.ErrUsage) {
			t.Errorf("namespace %q: %v, want a usage error", bad, err)
		}
	}
}

// TestOrphanScopeByNamespace: with a namespace only that namespace's
// indexes are listed or dropped; without one, every autorag index.
func TestOrphanScopeByNamespace(t *testing.T) {
	const id = "0123456789abcdef"
	for _, c := range []struct {
		alias, prefix string
		in            bool
	}{
		{"Autorag_alice_" + id, "Autorag_alice_", true},
		{"Autorag_bob_" + id, "Autorag_alice_", false},
		{"Autorag_" + id, "Autorag_alice_", false},
		{"Autorag_bob_" + id, "Autorag_", true},
		{"Autorag_" + id, "Autorag_", true},
	} {
		if got := inScope(c.alias, c.prefix); got != c.in {
			t.Errorf("inScope(%s, %s) = %v, want %v", c.alias, c.prefix, got, c.in)
		}
	}
	for name, want := range map[string]string{
		"Autorag_" + id + "_000000001_b":      "Autorag_" + id,
		"Autorag_bob_" + id + "_journal":      "Autorag_bob_" + id,
		"Autorag_bob_notanid_000000001_b":     "",
		"Other_" + id:                         "",
		"Autorag_" + id[:15] + "_000000001_a": "",
	} {
		if got, _ := aliasOfCollection(name); got != want {
			t.Errorf("aliasOfCollection(%s) = %q, want %q", name, got, want)
		}
	}
}
