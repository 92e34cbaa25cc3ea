package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestQueryJSONReturnsDefs: `query --json` returns, with each code
// result, the definitions its chunk holds (name, kind and the file line
// that names each), for Go (go/parser) and for Python (its rules).
func TestQueryJSONReturnsDefs(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "store/store.go", "package store\n\nimport \"os\"\n\n"+
		"// Store keeps documents on disk.\ntype Store struct{ dir string }\n\n"+
		"// Get returns the document named id.\nfunc (s *Store) Get(id string) ([]byte, error) {\n\treturn os.ReadFile(s.dir + \"/\" + id)\n}\n")
	writeFile(t, root, "adapter.py", "import json\n\n\nclass TypeAdapter:\n    \"\"\"Adapts a type.\"\"\"\n\n"+
		"    def validate_python(self, obj):\n        return obj\n\n\ndef include_router(app, router):\n    app.routers.append(router)\n")
	refreshJSON(t, root)
	tests := []struct {
		query, path string
		want        []any
	}{
		{"TypeAdapter validate_python", "adapter.py", []any{
			map[string]any{"name": "TypeAdapter", "kind": "class", "line": 4.0},
			map[string]any{"name": "validate_python", "kind": "method", "line": 7.0},
			map[string]any{"name": "include_router", "kind": "function", "line": 11.0},
		}},
		{"Store Get document", "store/store.go", []any{
			map[string]any{"name": "Store", "kind": "type", "line": 6.0},
			map[string]any{"name": "Get", "kind": "method", "line": 9.0},
		}},
	}
	for _, tt := range tests {
		out := mustOK(t, "--root", root, "query", tt.query, "--json", "-k", "1", "--mode", "bm25").json(t)
		results, _ := out["results"].([]any)
		if len(results) != 1 {
			t.Fatalf("query %q: %d results, want 1: %v", tt.query, len(results), out)
		}
		r := results[0].(map[string]any)
		if r["path"] != tt.path {
			t.Fatalf("query %q: top result %v, want %s", tt.query, r["path"], tt.path)
		}
		if diff := cmp.Diff(tt.want, r["defs"]); diff != "" {
			t.Errorf("query %q: defs of %s (-want +got):\n%s", tt.query, tt.path, diff)
		}
	}
}
