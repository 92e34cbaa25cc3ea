package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// cli runs the autorag binary as real processes.
type cli struct {
	bin    string
	env    []string // extra environment of every run
	probes int      // probe queries per mode; 0: all
}

func (c *cli) probeLimit() int {
	if c.probes > 0 {
		return c.probes
	}
	return len(probes)
}

// result is one finished process.
type result struct {
	code           int // -1: killed by a signal
	stdout, stderr string
}

func (r result) String() string {
	return fmt.Sprintf("exit %d, stdout %.400q, stderr %.400q", r.code, r.stdout, r.stderr)
}

// obj decodes stdout as one JSON object (nil when it is not one).
func (r result) obj() map[string]any {
	var m map[string]any
	if json.Unmarshal([]byte(r.stdout), &m) != nil {
		return nil
	}
	return m
}

// baseEnv is the environment of every run: the harness's own, less any
// AUTORAG_* setting, offline local embedder.
func baseEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "AUTORAG_") && !strings.HasPrefix(kv, "OPENAI_") {
			env = append(env, kv)
		}
	}
	return env
}

func (c *cli) command(ctx context.Context, env []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Env = append(append(baseEnv(), c.env...), env...)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGKILL) }
	return cmd
}

// run runs one command to its end (at most two minutes: a hang is a
// failure, reported as a kill).
func (c *cli) run(env []string, args ...string) result {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := c.command(ctx, env, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return result{code: exitCode(err), stdout: out.String(), stderr: errb.String()}
}

// exitCode maps a Wait error to the exit code, -1 for a signal.
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -2
}

// started is a process running in the background.
type started struct {
	cmd       *exec.Cmd
	out, errb bytes.Buffer
	done      chan struct{}
	res       result
}

func (c *cli) start(env []string, args ...string) (*started, error) {
	s := &started{done: make(chan struct{})}
	s.cmd = c.command(context.Background(), env, args...)
	s.cmd.Stdout, s.cmd.Stderr = &s.out, &s.errb
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		err := s.cmd.Wait()
		s.res = result{code: exitCode(err), stdout: s.out.String(), stderr: s.errb.String()}
		close(s.done)
	}()
	return s, nil
}

// kill sends SIGKILL and waits for the process.
func (s *started) kill() result {
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.done
	return s.res
}

func (s *started) wait() result {
	<-s.done
	return s.res
}

// buildCLI builds ./cmd/autorag from the module root into dir.
func buildCLI(moduleRoot, dir string) (string, error) {
	out := filepath.Join(dir, "autorag")
	cmd := exec.Command("go", "build", "-o", out, "./cmd/autorag")
	cmd.Dir = moduleRoot
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/autorag: %w\n%s", err, b)
	}
	return out, nil
}

// startStreams starts a process whose stdout and stderr lines arrive on
// channels (closed at the process's end); s.res then holds no output.
func (c *cli) startStreams(env []string, args ...string) (s *started, stdout, stderr <-chan string, err error) {
	s = &started{done: make(chan struct{})}
	s.cmd = c.command(context.Background(), env, args...)
	op, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, nil, nil, err
	}
	ep, err := s.cmd.StderrPipe()
	if err != nil {
		return nil, nil, nil, err
	}
	if err := s.cmd.Start(); err != nil {
		return nil, nil, nil, err
	}
	lines := func(r io.Reader, ch chan<- string, wg *sync.WaitGroup) {
		defer wg.Done()
		defer close(ch)
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			ch <- sc.Text()
		}
		_, _ = io.Copy(io.Discard, r)
	}
	och, ech := make(chan string, 1024), make(chan string, 1024)
	var wg sync.WaitGroup
	wg.Add(2)
	go lines(op, och, &wg)
	go lines(ep, ech, &wg)
	go func() {
		wg.Wait()
		s.res = result{code: exitCode(s.cmd.Wait())}
		close(s.done)
	}()
	return s, och, ech, nil
}

// runMeasured runs one command to its end, at most two minutes, under an
// address-space cap of capBytes (prlimit; none when it is missing), and
// returns its peak RSS in KiB.
func (c *cli) runMeasured(capBytes int64, args ...string) (result, int64) {
	// 11 MiB of random bytes take minutes on a loaded machine.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := c.command(ctx, nil, args...)
	if p, err := exec.LookPath("prlimit"); err == nil {
		cmd.Path, cmd.Args = p, append([]string{"prlimit", fmt.Sprintf("--as=%d", capBytes), "--", c.bin}, args...)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var rss int64
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			rss = ru.Maxrss
		}
	}
	return result{code: exitCode(err), stdout: out.String(), stderr: errb.String()}, rss
}
