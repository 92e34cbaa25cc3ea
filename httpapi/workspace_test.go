package httpapi

import (
	"context"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/autorag/autorag/agentapi"
	"github.com/autorag/autorag/engine"
)

// TestTwoRoots: root selects the root of search, status and read, and
// results name theirs.
func TestTwoRoots(t *testing.T) {
	var ms []agentapi.Member
	for name, text := range map[string]string{"birds": "# Herons\n\nThe heron fishes.\n", "boats": "# Boats\n\nA heron on a boat.\n"} {
		root := filepath.Join(t.TempDir(), name)
		os.MkdirAll(root, 0o755)
		if err := os.WriteFile(filepath.Join(root, "a.md"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		e, err := engine.New(root, engine.DefaultSettings())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Refresh(t.Context(), engine.RefreshOptions{}); err != nil {
			t.Fatal(err)
		}
		ms = append(ms, agentapi.Member{Name: name, Engine: e})
	}
	ws, err := agentapi.NewWorkspace(ms, agentapi.WorkspaceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, Handler(ws), Options{}) }()
	defer func() { cancel(); <-done }()
	base := "http://" + ln.Addr().String()

	_, all := do(t, "GET", base+"/v1/search?q=heron", "", "", "")
	if rs := all["results"].([]any); len(rs) != 2 || len(all["roots"].([]any)) != 2 {
		t.Fatalf("search of both: %v", all)
	}
	_, one := do(t, "GET", base+"/v1/search?"+url.Values{"q": {"heron"}, "root": {"boats"}, "max_tokens": {"200"}}.Encode(), "", "", "")
	if rs := one["results"].([]any); len(rs) != 1 || rs[0].(map[string]any)["root"] != "boats" || one["tokens"] == nil {
		t.Errorf("search of boats: %v", one)
	}
	if code, st := do(t, "GET", base+"/v1/status?root=birds", "", "", ""); code != 200 || st["name"] != "birds" || st["generation"] == nil {
		t.Errorf("status of birds: %d %v", code, st)
	}
	if code, rd := do(t, "GET", base+"/v1/read?path=a.md", "", "", ""); code != 400 {
		t.Errorf("read without a root: %d %v", code, rd)
	}
	if code, rd := do(t, "POST", base+"/v1/read", "", "application/json", `{"root":"birds","path":"a.md"}`); code != 200 || rd["root"] != "birds" {
		t.Errorf("read birds/a.md: %d %v", code, rd)
	}
	if code, e := do(t, "GET", base+"/v1/search?q=heron&root=nope", "", "", ""); code != 400 {
		t.Errorf("unknown root: %d %v", code, e)
	}
}
