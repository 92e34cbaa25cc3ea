package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// watcher is `autorag watch --json` with its tick lines on a channel.
type watcher struct {
	cmd   *exec.Cmd
	ticks chan map[string]any
}

func startWatch(ctx context.Context, bin, root string, args ...string) (*watcher, error) {
	cmd := exec.CommandContext(ctx, bin, append([]string{"--root", root, "watch", "--json"}, args...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	w := &watcher{cmd: cmd, ticks: make(chan map[string]any, 1<<16)}
	go w.read(out)
	if _, err := w.wait("start", 10*time.Minute); err != nil {
		return nil, err
	}
	return w, nil
}

func (w *watcher) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil {
			w.ticks <- m
		}
	}
	close(w.ticks)
}

// wait returns the next tick of the given trigger.
func (w *watcher) wait(trigger string, limit time.Duration) (map[string]any, error) {
	deadline := time.After(limit)
	for {
		select {
		case m, ok := <-w.ticks:
			if !ok {
				return nil, fmt.Errorf("watch exited while waiting for a %s tick", trigger)
			}
			if m["trigger"] == trigger {
				return m, nil
			}
		case <-deadline:
			return nil, fmt.Errorf("no %s tick within %s", trigger, limit)
		}
	}
}

func (w *watcher) stop() error {
	_ = w.cmd.Process.Signal(syscall.SIGTERM)
	for range w.ticks {
	}
	return w.cmd.Wait()
}
