package main

import (
	"strings"
	"testing"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/mirror"

	"github.com/google/go-cmp/cmp"
)

// TestQueryJSONReturnsDefs: `query --json` returns, with each code
// result, the definitions its chunk holds (name, kind and the file line
// that names each), for Go (go/parser) and for Python and TSX
// (tree-sitter; a .tsx file's JSX read by the TSX grammar).
func TestQueryJSONReturnsDefs(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "store/store.go", "package store\n\nimport \"os\"\n\n"+
		"// Store keeps documents on disk.\ntype Store struct{ dir string }\n\n"+
		"// Get returns the document named id.\nfunc (s *Store) Get(id string) ([]byte, error) {\n\treturn os.ReadFile(s.dir + \"/\" + id)\n}\n")
	writeFile(t, root, "adapter.py", "import json\n\n\nclass TypeAdapter:\n    \"\"\"Adapts a type.\"\"\"\n\n"+
		"    def validate_python(self, obj):\n        return obj\n\n\ndef include_router(app, router):\n    app.routers.append(router)\n")
	writeFile(t, root, "ui/Panel.tsx", "import { Base } from \"./base\";\n\n"+
		"export function PanelTitle(props: { text: string }) {\n  return <h1 className=\"title\">{props.text}</h1>;\n}\n\n"+
		"export class Panel extends Base {\n  render() {\n    return <PanelTitle text=\"hello\" />;\n  }\n}\n")
	refreshJSON(t, root, "--syntax-trees")
	tests := []struct {
		query, path string
		want        []any
	}{
		{"TypeAdapter validate_python", "adapter.py", []any{
			map[string]any{"name": "TypeAdapter", "kind": "class", "line": 4.0},
			map[string]any{"name": "validate_python", "kind": "method", "line": 7.0},
			map[string]any{"name": "include_router", "kind": "function", "line": 11.0},
		}},
		{"PanelTitle Panel render", "ui/Panel.tsx", []any{
			map[string]any{"name": "PanelTitle", "kind": "function", "line": 3.0},
			map[string]any{"name": "Panel", "kind": "class", "line": 7.0},
			map[string]any{"name": "render", "kind": "method", "line": 8.0},
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

// TestPrintRefreshNotes: a file indexed in a lesser way (its syntax
// parser failed) is a note, not a skipped file.
func TestPrintRefreshNotes(t *testing.T) {
	var b strings.Builder
	printRefresh(&b, &engine.RefreshResult{Outcome: engine.OutcomeRebuilt, Failures: []mirror.Failure{
		{Path: "blob.dat", Reason: "binary"},
		{Path: "big.py", Reason: "definitions not found (too large): cut by the line heuristic", Indexed: true},
	}}, false)
	for _, want := range []string{"  skipped blob.dat: binary\n", "  note big.py: definitions not found (too large): cut by the line heuristic\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, b.String())
		}
	}
}
