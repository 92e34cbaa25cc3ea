package main

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// pathTrap is one thing a path can lead to that must never be indexed or
// read: its secret word must not be found, and naming it must not hang.
type pathTrap struct {
	name   string
	path   string // what a caller names
	secret string // the word only the trap's target holds ("" for special files)
}

// plantTraps fills root (and outside, a directory beside it) with every
// trap: a symlinked parent leading outside, a symlinked parent leading into
// an ignored directory, a symlinked leaf to an ignored file, a path under
// an ignored ancestor, case variants of .git and .autorag, a FIFO (as a
// source behind a link and as an ignore file), a socket and a device.
func plantTraps(root, outside string) ([]pathTrap, error) {
	files := map[string]string{
		filepath.Join(outside, "o.md"):          "outside zebrafishword",
		filepath.Join(root, ".gitignore"):       "secret/\n",
		filepath.Join(root, "secret", "k.md"):   "ignored yakword",
		filepath.Join(root, ".GIT", "c.md"):     "gitcase quokkaword",
		filepath.Join(root, ".Autorag", "n.md"): "autoragcase kiwiword",
		filepath.Join(root, "ok.md"):            "plain heronword",
	}
	for p, b := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, []byte(b+"\n"), 0o644); err != nil {
			return nil, err
		}
	}
	links := map[string]string{"link": outside, "sdir": "secret", "pub.md": "secret/k.md", "special/pipe.md": "fifo"}
	if err := os.MkdirAll(filepath.Join(root, "special", "fifodir"), 0o755); err != nil {
		return nil, err
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			return nil, err
		}
	}
	if err := mkSpecial(root); err != nil {
		return nil, err
	}
	return []pathTrap{
		{"symlinked parent out of the root", "link/o.md", "zebrafishword"},
		{"symlinked parent into an ignored directory", "sdir/k.md", "yakword"},
		{"symlinked leaf to an ignored file", "pub.md", "yakword"},
		{"ignored ancestor", "secret/k.md", "yakword"},
		{"case variant of .git", ".GIT/c.md", "quokkaword"},
		{"case variant of .autorag", ".Autorag/n.md", "kiwiword"},
		{"FIFO behind a source name", "special/pipe.md", ""},
		{"FIFO as an ignore file", "special/fifodir/.gitignore", ""},
		{"socket", "special/sock.md", ""},
		{"device", "special/dev.md", ""},
	}, nil
}

// mkSpecial makes the FIFOs, the socket and the device of the trap root.
func mkSpecial(root string) error {
	sp := filepath.Join(root, "special")
	if err := syscall.Mkfifo(filepath.Join(sp, "fifo"), 0o644); err != nil {
		return err
	}
	if err := syscall.Mkfifo(filepath.Join(sp, "fifodir", ".gitignore"), 0o644); err != nil {
		return err
	}
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: filepath.Join(sp, "sock.md")}); err != nil {
		return err
	}
	// A character device like /dev/zero (1, 5) where root may make one;
	// elsewhere a FIFO stands in for it.
	if err := syscall.Mknod(filepath.Join(sp, "dev.md"), syscall.S_IFCHR|0o644, 1<<8|5); err != nil {
		return syscall.Mkfifo(filepath.Join(sp, "dev.md"), 0o644)
	}
	return nil
}

// pathEntries tries every way a path enters (the walk, refresh --paths,
// watch events, read over HTTP and MCP) against every trap: nothing of a
// trap is indexed or read, and nothing hangs (every command and request
// has a deadline; a hang is a failure).
func (h *harness) pathEntries() outcome {
	o := outcome{Scenario: "path entries (walk, --paths, watch events, read over HTTP) × traps (symlinked parent, symlinked leaf, ignored ancestor, .GIT/.Autorag case variants, FIFO, socket, device)"}
	h.trapRun(&o, h.work)
	return o
}

// trapRun plants the traps in a new root under base and tries every path
// entry against them.
func (h *harness) trapRun(o *outcome, base string) {
	root, err := os.MkdirTemp(base, "traps-")
	if err != nil {
		o.fail("setup: %v", err)
		return
	}
	defer os.RemoveAll(root)
	outside := root + "-outside"
	defer os.RemoveAll(outside)
	traps, err := plantTraps(root, outside)
	if err != nil {
		o.fail("setup: %v", err)
		return
	}
	entry := func(name string, run func() result) {
		r := run()
		if r.code != 0 {
			o.fail("%s: %s", name, r)
		}
		h.checkTraps(o, root, name, traps)
	}
	entry("walk", func() result { return h.cli.run(nil, "--root", root, "refresh", "--json") })
	args := []string{"--root", root, "refresh", "--json"}
	for _, t := range traps {
		args = append(args, "--paths", filepath.Join(root, t.path))
	}
	entry("refresh --paths", func() result { return h.cli.run(nil, args...) })
	entry("watch events", func() result { return h.watchTraps(root, outside) })
	h.readTraps(o, root, traps)
}

// checkTraps queries every trap's secret: none may be found.
func (h *harness) checkTraps(o *outcome, root, entry string, traps []pathTrap) {
	for _, t := range traps {
		if t.secret == "" {
			continue
		}
		o.Trials++
		r := h.cli.run(nil, "--root", root, "query", "--json", "--mode", "bm25", "--no-cache", t.secret)
		if r.code != 0 || strings.Contains(r.stdout, `"path"`) {
			o.fail("%s: %s: query %s: %s", entry, t.name, t.secret, r)
		}
	}
}

// watchTraps runs autorag watch, moves the traps' targets in after its
// start (a new outside file, a new ignored file reached through a link)
// and touches a source: the event tick indexes nothing of them.
func (h *harness) watchTraps(root, outside string) result {
	w, lines, _, err := h.cli.startStreams(nil, "--root", root, "watch", "--json", "--debounce", "50ms", "--reconcile", "0", "--compact-idle", "0")
	if err != nil {
		return result{code: -2, stderr: err.Error()}
	}
	defer w.kill()
	if !waitLine(lines, `"trigger":"start"`) {
		return result{code: -3, stderr: "watch: no start tick"}
	}
	_ = os.WriteFile(filepath.Join(outside, "o2.md"), []byte("outside zebrafishword again\n"), 0o644)
	_ = os.WriteFile(filepath.Join(root, "secret", "k2.md"), []byte("ignored yakword again\n"), 0o644)
	_ = os.Symlink("secret/k2.md", filepath.Join(root, "pub2.md"))
	_ = os.WriteFile(filepath.Join(root, "ok.md"), []byte("plain heronword edited\n"), 0o644)
	if !waitLine(lines, `"trigger":"event"`) {
		return result{code: -3, stderr: "watch: no event tick after the traps were planted"}
	}
	return result{}
}

// waitLine waits (a minute at most) for a line holding want; it drains
// the lines before it.
func waitLine(lines <-chan string, want string) bool {
	deadline := time.After(time.Minute)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				return false
			}
			if strings.Contains(l, want) {
				return true
			}
		case <-deadline:
			return false
		}
	}
}

var listenURL = regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+)`)

// startServer runs autorag serve or mcp --http on a free loopback port and
// returns its base URL.
func (h *harness) startServer(root string, args ...string) (*started, string, error) {
	return h.startServerEnv(nil, append([]string{"--root", root}, args...)...)
}

// startServerEnv is startServer with extra environment and all the
// arguments (roots included) given.
func (h *harness) startServerEnv(env []string, args ...string) (*started, string, error) {
	s, _, errs, err := h.cli.startStreams(env, args...)
	if err != nil {
		return nil, "", err
	}
	deadline := time.After(time.Minute)
	for {
		select {
		case l, ok := <-errs:
			if !ok {
				return nil, "", fmt.Errorf("%v: exited before listening", args)
			}
			if m := listenURL.FindStringSubmatch(l); m != nil {
				go func() { // keep the pipe drained
					for range errs {
					}
				}()
				return s, m[1], nil
			}
		case <-deadline:
			s.kill()
			return nil, "", fmt.Errorf("%v: no listening line within a minute", args)
		}
	}
}

// readTraps asks GET /v1/read for every trap: each is refused (403) or
// not found (404), promptly.
func (h *harness) readTraps(o *outcome, root string, traps []pathTrap) {
	s, base, err := h.startServer(root, "serve", "--addr", "127.0.0.1:0", "--timeout", "5s")
	if err != nil {
		o.fail("serve: %v", err)
		return
	}
	defer s.kill()
	c := &http.Client{Timeout: 30 * time.Second}
	for _, t := range traps {
		o.Trials++
		res, err := c.Get(base + "/v1/read?path=" + url.QueryEscape(t.path))
		if err != nil {
			o.fail("read %s: %v", t.name, err)
			continue
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusForbidden && res.StatusCode != http.StatusNotFound {
			o.fail("read %s (%s): %d %.200s", t.name, t.path, res.StatusCode, b)
		}
	}
}
