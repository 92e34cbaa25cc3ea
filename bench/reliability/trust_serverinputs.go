package main

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// serverInputs tries what a server is given against its bounds: a read of
// a one-line file of megabytes (at most 256 KiB of text, trimmed, with a
// next offset), a query of 20 KB (a usage error, over HTTP and MCP), one
// directory named three times (served once), and a root replaced by a
// symlink to another directory while the server runs (refused, nothing
// read or written through it).
func (h *harness) serverInputs(trials int) outcome {
	o := outcome{Scenario: "servers × (read of a one-line 4 MB file, 20 KB query over HTTP and MCP, one root named thrice through a link, a root replaced by a symlink while serving): bounded, refused or merged"}
	for i := range trials {
		for name, f := range map[string]func() error{
			"read":      h.longLineRead,
			"query":     h.longQuery,
			"duplicate": h.duplicateRoots,
			"replaced":  h.replacedRoot,
		} {
			o.Trials++
			if err := f(); err != nil {
				o.fail("%s, trial %d: %v", name, i, err)
			}
		}
	}
	return o
}

// servedRoots makes a parent directory with the named roots, each one
// refreshed file holding "heron" and its name, and serves the first ones
// (serve) given by args.
func (h *harness) servedRoots(names ...string) (string, func(), error) {
	parent, err := os.MkdirTemp(h.work, "inputs-")
	if err != nil {
		return "", nil, err
	}
	for _, n := range names {
		dir := filepath.Join(parent, n)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, n+".md"), []byte("# "+n+"\n\nThe heron of "+n+"word.\n"), 0o644); err != nil {
			return "", nil, err
		}
		if r := h.cli.run(nil, "--root", dir, "refresh", "--json"); r.code != 0 {
			return "", nil, fmt.Errorf("refresh %s: %s", n, r)
		}
	}
	return parent, func() { os.RemoveAll(parent) }, nil
}

func get(u string) (int, string, error) {
	res, err := (&http.Client{Timeout: serverLimit + 20*time.Second}).Get(u)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
	return res.StatusCode, string(b), err
}

func (h *harness) longLineRead() error {
	parent, done, err := h.servedRoots("long")
	if err != nil {
		return err
	}
	defer done()
	root := filepath.Join(parent, "long")
	line := strings.Repeat("heronword ", 4<<20/10) + "\n"
	if err := os.WriteFile(filepath.Join(root, "line.txt"), []byte(line), 0o644); err != nil {
		return err
	}
	if r := h.cli.run(nil, "--root", root, "refresh", "--json"); r.code != 0 {
		return fmt.Errorf("refresh: %s", r)
	}
	s, base, err := h.startServer(root, "serve", "--addr", "127.0.0.1:0", "--timeout", serverLimit.String())
	if err != nil {
		return err
	}
	defer s.kill()
	code, body, err := get(base + "/v1/read?path=line.txt")
	if err != nil || code != 200 || len(body) > 300<<10 || !strings.Contains(body, `"trimmed":true`) || !strings.Contains(body, `"offset":262`) {
		return fmt.Errorf("read of a 4 MB line: %d, %d bytes, %v: %.200s", code, len(body), err, body)
	}
	return nil
}

func (h *harness) longQuery() error {
	parent, done, err := h.servedRoots("q")
	if err != nil {
		return err
	}
	defer done()
	q := strings.Repeat("heron ", 20000/6)
	s, base, err := h.startServer(filepath.Join(parent, "q"), "serve", "--addr", "127.0.0.1:0", "--timeout", serverLimit.String())
	if err != nil {
		return err
	}
	defer s.kill()
	if code, body, err := get(base + "/v1/search?" + url.Values{"q": {q}}.Encode()); err != nil || code != 400 || !strings.Contains(body, "query of") {
		return fmt.Errorf("serve, a 20 KB query: %d %v %.200s", code, err, body)
	}
	m, mbase, err := h.startServer(filepath.Join(parent, "q"), "mcp", "--http", "127.0.0.1:0", "--timeout="+serverLimit.String())
	if err != nil {
		return err
	}
	c := &mcpHTTP{s: m, base: mbase}
	if err := c.init(); err != nil {
		return err
	}
	defer c.close()
	if ans, err := c.ask(q); err != nil || refusedResult(ans) != nil || !strings.Contains(ans, "query of") {
		return fmt.Errorf("mcp --http, a 20 KB query: %v %.200s", err, ans)
	}
	return nil
}

func (h *harness) duplicateRoots() error {
	parent, done, err := h.servedRoots("dup")
	if err != nil {
		return err
	}
	defer done()
	a, link := filepath.Join(parent, "dup"), filepath.Join(parent, "duplink")
	if err := os.Symlink(a, link); err != nil {
		return err
	}
	s, base, err := h.startServer(a, "--root", link, "--root", a, "serve", "--addr", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer s.kill()
	code, body, err := get(base + "/v1/search?q=heron")
	if err != nil || code != 200 || strings.Count(body, `"path":"dup.md"`) != 1 || strings.Count(body, `"root":"dup`) != 2 {
		return fmt.Errorf("search of one root named thrice: %d %v %.400s", code, err, body)
	}
	return nil
}

func (h *harness) replacedRoot() error {
	parent, done, err := h.servedRoots("cee", "dee", "alpha")
	if err != nil {
		return err
	}
	defer done()
	c, d := filepath.Join(parent, "cee"), filepath.Join(parent, "dee")
	s, base, err := h.startServer(c, "--root", filepath.Join(parent, "alpha"), "serve", "--addr", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer s.kill()
	if err := os.Rename(c, c+".moved"); err != nil {
		return err
	}
	if err := os.Symlink(d, c); err != nil {
		return err
	}
	if code, body, err := get(base + "/v1/search?q=heron+deeword"); err != nil || code != 200 || strings.Contains(body, "dee.md") || !strings.Contains(body, "alpha.md") {
		return fmt.Errorf("search after cee was replaced: %d %v %.300s", code, err, body)
	}
	if code, body, err := get(base + "/v1/read?root=cee&path=dee.md"); err != nil || code == 200 {
		return fmt.Errorf("read through the replaced root: %d %v %.200s", code, err, body)
	}
	req, _ := http.NewRequest("POST", base+"/v1/refresh", strings.NewReader(`{"root":"cee"}`))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	res.Body.Close()
	if res.StatusCode == 200 {
		return fmt.Errorf("refresh of the replaced root: 200")
	}
	return nil
}
