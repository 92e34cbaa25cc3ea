package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// ttyRun runs autorag with stdout and stderr on a real pseudo-terminal
// (pipeStdout: stdout on a pipe instead) and returns what the terminal
// received and what the pipe did.
func ttyRun(t *testing.T, env []string, pipeStdout bool, args ...string) (term, piped string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("open pty: %v", err)
	}
	defer ptmx.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: 160}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(append(cleanEnv(), "AUTORAG_TEST_MAIN=1", "TERM=xterm"), env...)
	var out bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	if pipeStdout {
		cmd.Stdout = &out
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	var screen bytes.Buffer
	copied := make(chan struct{})
	go func() {
		io.Copy(&screen, ptmx) // ends with EIO once the child is gone
		close(copied)
	}()
	err = cmd.Wait()
	<-copied
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return screen.String(), out.String(), code
}

// render plays raw terminal output onto a screen (carriage return, line
// feed, erase-line escapes, printable text) and returns its lines.
func render(raw string) []string {
	lines := []([]rune){nil}
	row, col := 0, 0
	rs := []rune(raw)
	for i := 0; i < len(rs); i++ {
		switch c := rs[i]; {
		case c == '\r':
			col = 0
		case c == '\n':
			row, col = row+1, 0
			if row == len(lines) {
				lines = append(lines, nil)
			}
		case c == 0x1b && i+1 < len(rs) && rs[i+1] == '[':
			j := i + 2
			for j < len(rs) && (rs[j] < 0x40 || rs[j] > 0x7e) {
				j++
			}
			if j < len(rs) && rs[j] == 'K' {
				arg := string(rs[i+2 : j])
				switch arg {
				case "2":
					lines[row] = nil
				case "", "0":
					if col < len(lines[row]) {
						lines[row] = lines[row][:col]
					}
				}
			}
			i = j
		default:
			for len(lines[row]) <= col {
				lines[row] = append(lines[row], ' ')
			}
			lines[row][col] = c
			col++
		}
	}
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		out = append(out, strings.TrimRight(string(l), " "))
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// TestProgressOnTerminal runs a refresh through a slow remote embedder on
// a real pseudo-terminal: the progress line redraws in place (carriage
// returns, no new lines), shows the phase, done/total in chunks to embed, a
// rate and the time left, the requests in flight, the files indexed and a
// 429's wait, and is gone from the screen when the summary is printed on
// its own line; a staged refresh's shows the same of its upgrade (and
// upgradeprogress_test.go of `autorag upgrade`). With stdout on a pipe the
// pipe gets the summary alone.
func TestProgressOnTerminal(t *testing.T) {
	f := newFakeOllama(t, 8)
	f.set(func(f *fakeOllama) { f.delay, f.limit429 = 40*time.Millisecond, 2 })
	root := copyCorpus(t)
	env := providerEnv(f, "OPENAI_EMBEDDING_BATCH_SIZE=2", "OPENAI_EMBEDDING_CONCURRENCY=2")
	// The first refresh is staged (a remote embedder): the built-in
	// embedder's generation first, said on a line of its own, then the
	// upgrade's progress, gone when the summary is printed.
	raw, _, code := ttyRun(t, env, false, "--root", root, "refresh")
	if code != 0 {
		t.Fatalf("staged refresh on a terminal: exit %d\n%q", code, raw)
	}
	if screen := render(raw); len(screen) != 5 || !strings.HasPrefix(screen[0], "autorag: searchable now: generation") ||
		!strings.HasPrefix(screen[1], "rebuilt: generation") {
		t.Errorf("screen after the staged refresh should hold the first commit's line and the summary:\n%s", strings.Join(screen, "\n"))
	}
	// Its lines tell what the provider does: the trial of the target
	// waiting out the 429s, then the upgrade's requests in flight.
	for _, want := range []string{"probe", "HTTP 429", "retrying in 1s", "/92 chunks", "chunks/s", "requests in flight"} {
		if !strings.Contains(raw, want) {
			t.Errorf("staged refresh's progress lacks %q: %q", want, raw)
		}
	}
	// A rebuild is never staged: its progress is the remote embedder's own
	// (the cache gone, every chunk goes to the provider again).
	if err := os.RemoveAll(filepath.Join(root, ".autorag", "cache")); err != nil {
		t.Fatal(err)
	}
	f.set(func(f *fakeOllama) { f.limit429 = 2 })
	raw, _, code = ttyRun(t, env, false, "--root", root, "index", "rebuild")
	if code != 0 {
		t.Fatalf("index rebuild on a terminal: exit %d\n%q", code, raw)
	}
	summaryAt := strings.Index(raw, "rebuilt: generation")
	if summaryAt < 0 {
		t.Fatalf("no summary in %q", raw)
	}
	progress := raw[:summaryAt]
	if strings.Contains(progress, "\n") {
		t.Errorf("the progress line did not redraw in place (a new line before the summary): %q", progress)
	}
	for _, want := range []string{"probe", "HTTP 429", "retrying in 1s", "embed ", "/92 chunks", "chunks/s", "left", "requests in flight", "/30 files indexed"} {
		if !strings.Contains(progress, want) {
			t.Errorf("progress output lacks %q: %q", want, progress)
		}
	}
	if n := strings.Count(progress, "\r"); n < 4 {
		t.Errorf("progress drawn %d times, want several redraws: %q", n, progress)
	}
	screen := render(raw)
	if len(screen) != 3 || !strings.HasPrefix(screen[0], "rebuilt: generation") || !strings.Contains(screen[1], "30 added") ||
		!strings.HasPrefix(screen[2], "  index ") {
		t.Errorf("screen after the refresh should hold the summary alone, from column 0:\n%s", strings.Join(screen, "\n"))
	}

	// stdout on a pipe: the result only, progress on the terminal.
	writeFile(t, root, "docs/more.md", "# More\n\ntext about retries\n")
	term, piped, code := ttyRun(t, env, true, "--root", root, "refresh")
	if code != 0 || !strings.HasPrefix(piped, "updated: generation") || strings.ContainsAny(piped, "\r\x1b") {
		t.Errorf("piped stdout: exit %d, %q; want the summary alone", code, piped)
	}
	if strings.Contains(term, "updated:") {
		t.Errorf("the summary reached the terminal instead of the pipe: %q", term)
	}
	// --progress=never: nothing but the summary on the terminal.
	writeFile(t, root, "docs/more.md", "# More\n\ntext about retries, again\n")
	term, _, _ = ttyRun(t, env, false, "--root", root, "refresh", "--progress=never")
	if strings.Contains(term, "\r\x1b") || strings.Contains(term, "files/s") {
		t.Errorf("--progress=never drew progress: %q", term)
	}
}

// TestNoProgressOffTerminal: with stdout and stderr on pipes nothing but
// the summary is printed; --progress=always draws on stderr anyway (the
// index phase, in files, with the built-in embedder).
func TestNoProgressOffTerminal(t *testing.T) {
	root := copyCorpus(t)
	r := mustOK(t, "--root", root, "refresh")
	if r.stderr != "" || strings.ContainsAny(r.stdout, "\r\x1b") || !strings.HasPrefix(r.stdout, "rebuilt:") {
		t.Errorf("off a terminal: stdout %q, stderr %q; want the summary alone", r.stdout, r.stderr)
	}
	// The built-in embedder's build counts files.
	r = mustOK(t, "--root", root, "index", "rebuild", "--progress=always")
	if !strings.Contains(r.stderr, "index 0/30 files") || !strings.HasSuffix(r.stderr, "\r") {
		t.Errorf("--progress=always: stderr %q; want the index phase in files, cleared at the end", r.stderr)
	}
	if strings.ContainsAny(r.stdout, "\r\x1b") {
		t.Errorf("--progress=always: stdout %q has progress in it", r.stdout)
	}
	if r := cli(t, nil, "--root", root, "refresh", "--progress=sometimes"); r.code != exitUsage {
		t.Errorf("--progress=sometimes: exit %d, want 2", r.code)
	}
}

// TestQueryColorOnTerminal: on a terminal the text format highlights the
// query's terms, and NO_COLOR turns that off.
func TestQueryColorOnTerminal(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	term, _, code := ttyRun(t, nil, false, "--root", root, "query", "-k", "1", "retry backoff jitter")
	if code != 0 || !strings.Contains(term, styleMatch+"backoff"+styleReset) {
		t.Errorf("query on a terminal: exit %d, no highlighted term in %q", code, term)
	}
	term, _, _ = ttyRun(t, []string{"NO_COLOR=1"}, false, "--root", root, "query", "-k", "1", "retry backoff jitter")
	if strings.Contains(term, "\x1b[") || !strings.Contains(term, "backoff") {
		t.Errorf("NO_COLOR: %q", term)
	}
}
