package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// hostileScale indexes a directory of many files and a deeply nested one:
// the refresh succeeds and indexes every file, queries find planted words,
// index verify passes and a second refresh does no work.
func (h *harness) hostileScale(files, depth int) outcome {
	o := outcome{Scenario: fmt.Sprintf("hostile trees: %d files in one directory, %d-deep nesting", files, depth)}
	root, err := os.MkdirTemp(h.work, "hostile-")
	if err != nil {
		o.fail("setup: %v", err)
		return o
	}
	defer os.RemoveAll(root)
	flat := filepath.Join(root, "flat")
	deep := root
	for range depth {
		deep = filepath.Join(deep, "d")
	}
	err = os.MkdirAll(deep, 0o755)
	if err == nil {
		err = os.MkdirAll(flat, 0o755)
	}
	for i := 0; i < files && err == nil; i++ {
		err = os.WriteFile(filepath.Join(flat, fmt.Sprintf("f%06d.txt", i)), []byte(fmt.Sprintf("flatword%d common\n", i)), 0o644)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(deep, "bottom.md"), []byte("# Bottom\n\nthe abyssalword lives at the bottom\n"), 0o644)
	}
	if err != nil {
		o.fail("setup: %v", err)
		return o
	}
	o.Trials++
	r := h.cli.run(nil, "--root", root, "refresh", "--json")
	m := r.obj()
	if r.code != 0 || m == nil {
		o.fail("refresh: %s", r)
		return o
	}
	if n, _ := m["files"].(float64); int(n) != files+1 {
		o.fail("indexed %v files, want %d", m["files"], files+1)
	}
	for q, want := range map[string]string{"abyssalword": strings.Repeat("d/", depth) + "bottom.md", fmt.Sprintf("flatword%d", files-1): fmt.Sprintf("flat/f%06d.txt", files-1)} {
		o.Trials++
		r := h.cli.run(nil, "--root", root, "query", "--json", "--mode", "bm25", q)
		if r.code != 0 || !strings.Contains(r.stdout, `"path":"`+want+`"`) {
			o.fail("query %s does not find %s: %s", q, want, r)
		}
	}
	o.Trials++
	if r := h.cli.run(nil, "--root", root, "index", "verify"); r.code != 0 {
		o.fail("verify: %s", r)
	}
	o.Trials++
	if r := h.cli.run(nil, "--root", root, "refresh", "--json"); r.code != 0 || !strings.Contains(r.stdout, `"outcome":"unchanged"`) {
		o.fail("second refresh: %s", r)
	}
	return o
}
