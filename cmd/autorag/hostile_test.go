package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// noPanic fails when a run crashed instead of answering.
func noPanic(t *testing.T, what string, r result) {
	t.Helper()
	if strings.Contains(r.stderr, "panic:") || strings.Contains(r.stderr, "goroutine ") || r.code < 0 {
		t.Fatalf("%s crashed: exit %d\n%s", what, r.code, r.stderr)
	}
}

// failureReasons maps path to reason from a refresh envelope.
func failureReasons(m map[string]any) map[string]string {
	out := map[string]string{}
	fs, _ := m["failures"].([]any)
	for _, f := range fs {
		f, _ := f.(map[string]any)
		p, _ := f["path"].(string)
		r, _ := f["reason"].(string)
		out[p] = r
	}
	return out
}

// TestHostileTree indexes a tree built to break a walker and a reader:
// invalid UTF-8, NUL bytes, empty files, a 2 GiB sparse file, symlink loops
// and escapes, a FIFO and a socket, odd names, deep nesting (many files in
// one directory: bench/reliability's TestHostileScale). The refresh
// succeeds, reports what it skipped and why, and never blocks or panics.
func TestHostileTree(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(t.TempDir(), "outside.md")
	os.WriteFile(outside, []byte("# Outside\n\nnever indexed\n"), 0o644)
	files := map[string]string{
		"invalid-utf8.md":                "# Bad \xff\xfe bytes\n\nvalid words around \xc3\x28 broken sequences\n",
		"nul.txt":                        "text then \x00 a NUL byte\n",
		"empty.md":                       "",
		"name\nwith newline.md":          "# Newline\n\nodd name one\n",
		"name-\xff-invalid.md":           "# Invalid name\n\nodd name two\n",
		strings.Repeat("n", 252) + ".md": "# Long name\n\nodd name three\n",
		"ok.md":                          "# Fine\n\nthe pelican is ordinary\n",
	}
	for rel, content := range files {
		if err := os.WriteFile(filepath.Join(root, rel), []byte(content), 0o644); err != nil {
			t.Fatalf("%q: %v", rel, err)
		}
	}
	deep := root
	for range 200 {
		deep = filepath.Join(deep, "d")
	}
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(deep, "bottom.md"), []byte("# Bottom\n\nthe abyssal anglerfish\n"), 0o644)
	big, err := os.Create(filepath.Join(root, "sparse.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(2 << 30); err != nil {
		t.Fatal(err)
	}
	big.Close()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink("loop-b.md", filepath.Join(root, "loop-a.md")))
	must(os.Symlink("loop-a.md", filepath.Join(root, "loop-b.md")))
	must(os.Symlink(".", filepath.Join(root, "dirloop")))
	must(os.Symlink(outside, filepath.Join(root, "escape.md")))
	must(syscall.Mkfifo(filepath.Join(root, "fifo.md"), 0o644))
	l, err := net.Listen("unix", filepath.Join(root, "sock.md"))
	must(err)
	defer l.Close()

	r := cli(t, nil, "--root", root, "refresh", "--json")
	noPanic(t, "refresh", r)
	if r.code != 0 {
		t.Fatalf("refresh of a hostile tree: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	reasons := failureReasons(r.json(t))
	for path, want := range map[string]string{
		"sparse.txt": "too large (2147483648 bytes)", // rejected by its size, never opened
		"nul.txt":    "binary",
		"escape.md":  "symlink outside root",
	} {
		if reasons[path] != want {
			t.Errorf("%s: reason %q, want %q (all: %v)", path, reasons[path], want, reasons)
		}
	}
	for _, p := range []string{"loop-a.md", "loop-b.md"} {
		if reasons[p] == "" {
			t.Errorf("symlink loop %s not reported: %v", p, reasons)
		}
	}
	for q, want := range map[string]string{"anglerfish": "bottom.md", "pelican": "ok.md", "broken sequences": "invalid-utf8.md"} {
		m := mustOK(t, "--root", root, "query", "--json", "--mode", "bm25", q).json(t)
		if !strings.Contains(fmt.Sprint(m["results"]), want) {
			t.Errorf("query %q does not find %s: %v", q, want, m["results"])
		}
	}
	for _, name := range []string{"odd name one", "odd name two", "odd name three"} {
		m := mustOK(t, "--root", root, "query", "--json", "--mode", "bm25", name).json(t)
		if res, _ := m["results"].([]any); len(res) == 0 {
			t.Errorf("the file with an %s is not indexed", name)
		}
	}
	if strings.Contains(r.stdout, "never indexed") {
		t.Error("the file outside the root was read")
	}
	if v := cli(t, nil, "--root", root, "index", "verify"); v.code != 0 {
		t.Errorf("verify: %d %s", v.code, v.stderr)
	}
}

// TestFilesChangingMidRefresh deletes one file and truncates another
// between the walk and the read: the refresh succeeds, and the next one
// converges to what is on disk.
func TestFilesChangingMidRefresh(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	writeFile(t, root, "notes/gone.md", "# Gone\n\nthe vanishing ocelot\n")
	writeFile(t, root, "notes/short.md", "# Short\n\nthe truncated narwhal and much more text after it\n")
	refresh := exec.Command(os.Args[0], "--root", root, "refresh", "--json")
	refresh.Env = append(cleanEnv(), "AUTORAG_TEST_MAIN=1", "AUTORAG_FAILPOINT=scan-after-walk:delay=1s")
	stderr, _ := refresh.StderrPipe()
	out := &strings.Builder{}
	refresh.Stdout = out
	if err := refresh.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 256)
	n, _ := stderr.Read(buf)
	if !strings.Contains(string(buf[:n]), "delaying at scan-after-walk") {
		refresh.Process.Kill()
		t.Fatalf("refresh did not reach the delay: %q", buf[:n])
	}
	os.Remove(filepath.Join(root, "notes", "gone.md"))
	os.WriteFile(filepath.Join(root, "notes", "short.md"), []byte("# Sh"), 0o644)
	if err := refresh.Wait(); err != nil {
		t.Fatalf("refresh with files changing under it: %v %s", err, out)
	}
	refreshJSON(t, root)
	want := answers(t, refreshed(t, copyTree(t, root)))
	if diff := cmp.Diff(want, answers(t, root)); diff != "" {
		t.Fatalf("after files changed mid-refresh the next refresh did not converge:\n%s", diff)
	}
	if v := cli(t, nil, "--root", root, "index", "verify"); v.code != 0 {
		t.Errorf("verify: %d %s", v.code, v.stderr)
	}
}

// TestHostileQueries sends queries that are empty, 1 MB long, full of
// query-syntax characters or invalid UTF-8: a usage error (exit 2) for the
// empty one, a sane answer for the others, never a panic or a hang.
func TestHostileQueries(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	for _, q := range []string{"", "   ", "\t\n"} {
		r := cli(t, nil, "--root", root, "query", q)
		noPanic(t, "empty query", r)
		if r.code != 2 {
			t.Errorf("query %q: exit %d %s, want 2 (usage)", q, r.code, r.stderr)
		}
	}
	if r := cli(t, nil, "--root", root, "query"); r.code != 2 {
		t.Errorf("query without text: exit %d, want 2", r.code)
	}
	// One argument may hold at most 128 KiB (MAX_ARG_STRLEN): the 1 MB
	// query comes as 16 arguments, which query joins. Past the cap on a
	// query's text (backend.MaxQueryBytes) it is a usage error that says so.
	var long []string
	for range 16 {
		long = append(long, strings.Repeat("retry backoff configuration ", 1<<16/28))
	}
	for _, mode := range []string{"bm25", "hybrid"} {
		r := cli(t, nil, append([]string{"--root", root, "query", "--json", "--mode", mode}, long...)...)
		noPanic(t, "1 MB query", r)
		if r.code != 2 || !strings.Contains(r.stdout+r.stderr, "query of 1") {
			t.Errorf("1 MB query (%s): exit %d %.300s %.300s", mode, r.code, r.stdout, r.stderr)
		}
	}
	for name, q := range map[string]string{
		"syntax":       `+retry -backoff "exponential AND (jitter OR cap)" field:value title:* ~fuzzy^2 [a TO z] {x TO y} \ / && || ! ?*`,
		"invalid utf8": "retry \xff\xfe backoff \xc3\x28",
		"only symbols": `+-&|!(){}[]^"~*?:\/`,
	} {
		for _, mode := range []string{"bm25", "hybrid"} {
			r := cli(t, nil, "--root", root, "query", "--json", "--mode", mode, q)
			noPanic(t, name+" query", r)
			if r.code != 0 && r.code != 2 {
				t.Errorf("%s query (%s): exit %d %s", name, mode, r.code, r.stderr)
			}
			if r.code == 0 {
				r.json(t)
			}
		}
	}
}

// TestUnreadableFile refreshes a tree holding a file its user may not read:
// reported with the reason, everything else indexed. Root reads anything,
// so as root the CLI runs as nobody (uid 65534) over a tree it owns.
func TestUnreadableFile(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	writeFile(t, root, "ok.md", "# Fine\n\nthe readable heron\n")
	writeFile(t, root, "secret.md", "# Secret\n\nthe unreadable egret\n")
	secret := filepath.Join(root, "secret.md")
	bin := os.Args[0]
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		// nobody must reach the tree and run a copy of the test binary.
		for d := base; d != "/"; d = filepath.Dir(d) {
			if fi, err := os.Stat(d); err == nil {
				os.Chmod(d, fi.Mode().Perm()|0o711)
			}
		}
		bin = filepath.Join(base, "autorag.test")
		b, err := os.ReadFile(os.Args[0])
		if err != nil || os.WriteFile(bin, b, 0o755) != nil {
			t.Fatalf("copy test binary: %v", err)
		}
		filepath.Walk(root, func(p string, _ os.FileInfo, _ error) error { return os.Lchown(p, 65534, 65534) })
		os.Chown(secret, 0, 0)
		cred = &syscall.Credential{Uid: 65534, Gid: 65534}
	}
	if err := os.Chmod(secret, 0); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--root", root, "refresh", "--json")
	cmd.Env = append(cleanEnv(), "AUTORAG_TEST_MAIN=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("refresh with an unreadable file: %v %s", err, out)
	}
	var r result
	r.stdout = string(out)
	reasons := failureReasons(r.json(t))
	if !strings.Contains(reasons["secret.md"], "permission denied") {
		t.Fatalf("the unreadable file is not reported: %v", reasons)
	}
	if num(r.json(t), "files") != 1 {
		t.Errorf("indexed %d files, want the readable one", num(r.json(t), "files"))
	}
}
