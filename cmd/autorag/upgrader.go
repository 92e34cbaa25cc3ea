package main

import (
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/upgrade"
)

// upgradeNice is the niceness of a watch's upgrader: the embedding takes
// whatever CPU the watch, the servers' queries and the user leave.
const upgradeNice = "10"

// backgroundUpgrader runs `autorag upgrade` for one root in a child
// process at low priority (nice(1)) while a watch (watch, serve --watch,
// mcp --watch) keeps the root fresh and answering: a process of its own,
// so that the OS scheduler, not goroutines, keeps the embedding out of
// the way, and a crash of either loses nothing (the child flushes the
// embedding cache every upgrade.Group chunks; the next start resumes).
// poke starts one when an upgrade is due and none runs; stop ends it.
type backgroundUpgrader struct {
	g      *globals
	e      *engine.Engine
	notice func(string)

	mu      sync.Mutex
	child   *exec.Cmd
	done    chan struct{}
	stopped bool
}

func newBackgroundUpgrader(g *globals, e *engine.Engine, notice func(string)) *backgroundUpgrader {
	return &backgroundUpgrader{g: g, e: e, notice: notice}
}

// poke starts the upgrader when an upgrade is due and none runs here.
func (b *backgroundUpgrader) poke() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.child != nil || b.stopped {
		return
	}
	p := upgrade.Pending(b.e)
	if p == nil {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		b.notice("embedding upgrade not started: " + err.Error())
		return
	}
	args := []string{exe, "--root", b.e.Layout.Root, "--quiet", "upgrade", "--progress", "never"}
	if nice, err := exec.LookPath("nice"); err == nil {
		args = append([]string{nice, "-n", upgradeNice}, args...)
	}
	c := exec.Command(args[0], args[1:]...)
	c.Env = append(os.Environ(), b.g.indexFlagEnv()...)
	c.Stderr = os.Stderr
	c.SysProcAttr = childAttr()
	if err := c.Start(); err != nil {
		b.notice("embedding upgrade not started: " + err.Error())
		return
	}
	b.notice("embedding in the background (pid " + strconv.Itoa(c.Process.Pid) + "): " + p.Counts())
	b.child, b.done = c, make(chan struct{})
	go b.wait(c, b.done)
}

func (b *backgroundUpgrader) wait(c *exec.Cmd, done chan struct{}) {
	err := c.Wait()
	b.mu.Lock()
	b.child = nil
	b.mu.Unlock()
	close(done)
	if err == nil && upgrade.Pending(b.e) == nil {
		b.notice("embedding upgrade committed")
	}
}

// stop ends the upgrader (SIGTERM: it flushes what it embedded) and waits
// for it a moment.
func (b *backgroundUpgrader) stop() {
	b.mu.Lock()
	b.stopped = true
	c, done := b.child, b.done
	b.mu.Unlock()
	if c == nil {
		return
	}
	_ = c.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = c.Process.Kill()
		<-done
	}
}

// indexFlagEnv is the index settings given to this process by flags, as
// the environment variables a child reads them from.
func (g *globals) indexFlagEnv() []string {
	var out []string
	for _, st := range settingTable {
		if v, ok := g.settings.changed(st.flag); ok && st.group == groupIndex {
			out = append(out, st.env+"="+v)
		}
	}
	return out
}
