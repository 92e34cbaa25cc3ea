package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/autorag/autorag/lock"
)

// The test binary doubles as the CLI: with AUTORAG_TEST_MAIN=1 it runs
// autorag's main, so every test below drives real processes.
func TestMain(m *testing.M) {
	switch os.Getenv("AUTORAG_TEST_MAIN") {
	case "1":
		main()
	case "hold-lock":
		holdLock()
	}
	os.Exit(m.Run())
}

// holdLock takes the refresh lock of AUTORAG_ROOT, says so on stdout and
// holds it until killed.
func holdLock() {
	path := filepath.Join(os.Getenv("AUTORAG_ROOT"), ".autorag", "refresh.lock")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		os.Exit(5)
	}
	l, err := lock.Acquire(context.Background(), path, 0, "test-holder")
	if err != nil {
		os.Stderr.WriteString(err.Error())
		os.Exit(4)
	}
	os.Stdout.WriteString("locked\n")
	time.Sleep(time.Hour)
	l.Release()
	os.Exit(0)
}

type result struct {
	stdout, stderr string
	code           int
}

func (r result) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &m); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\nstdout: %s\nstderr: %s", err, r.stdout, r.stderr)
	}
	return m
}

// cli runs autorag in a new process with the given extra environment.
func cli(t *testing.T, env []string, args ...string) result {
	t.Helper()
	return cliRun(t, "", nil, env, args...)
}

// cliStdin is cli with stdin (nil: /dev/null).
func cliStdin(t *testing.T, stdin io.Reader, env []string, args ...string) result {
	t.Helper()
	return cliRun(t, "", stdin, env, args...)
}

// cliIn is cli run from the working directory dir ("" for the test's).
func cliIn(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	return cliRun(t, dir, nil, env, args...)
}

// cliRun runs autorag from dir with stdin (nil: /dev/null).
func cliRun(t *testing.T, dir string, stdin io.Reader, env []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), "AUTORAG_TEST_MAIN=1")
	cmd.Env = append(cmd.Env, env...)
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run %v: %v", args, err)
	}
	return result{stdout: out.String(), stderr: errb.String(), code: code}
}

// cleanEnv drops AUTORAG_* settings of the developer's shell, and keeps
// the race detector from sleeping a second at every child's exit.
func cleanEnv() []string {
	env := []string{"GORACE=atexit_sleep_ms=0"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "AUTORAG_") {
			env = append(env, kv)
		}
	}
	return env
}

// mustOK runs autorag and fails the test unless it exits 0.
func mustOK(t *testing.T, args ...string) result {
	t.Helper()
	r := cli(t, nil, args...)
	if r.code != 0 {
		t.Fatalf("autorag %v: exit %d\nstdout: %s\nstderr: %s", args, r.code, r.stdout, r.stderr)
	}
	return r
}

// mustOKIn is mustOK run from the working directory dir.
func mustOKIn(t *testing.T, dir string, args ...string) result {
	t.Helper()
	r := cliIn(t, dir, nil, args...)
	if r.code != 0 {
		t.Fatalf("autorag %v: exit %d\nstdout: %s\nstderr: %s", args, r.code, r.stdout, r.stderr)
	}
	return r
}

// copyCorpus copies testdata/corpus into a fresh directory.
func copyCorpus(t *testing.T) string {
	t.Helper()
	return copyTree(t, filepath.Join("..", "..", "testdata", "corpus"))
}

func writeFile(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func refreshJSON(t *testing.T, root string, extra ...string) map[string]any {
	t.Helper()
	args := append([]string{"--root", root, "refresh", "--json"}, extra...)
	return mustOK(t, args...).json(t)
}

func num(m map[string]any, key string) int {
	f, _ := m[key].(float64)
	return int(f)
}
