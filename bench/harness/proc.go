package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// sample is one timed process run.
type sample struct {
	Wall     time.Duration // fork to wait (see runProcess)
	MaxRSSKB int64
	Exit     int // -1 when killed by a signal
	Signal   int // the signal that killed it, or 0
	Stdout   []byte
	Stderr   []byte
}

// runOpts says how to run a process.
type runOpts struct {
	Dir           string
	DiscardStdout bool // send stdout to /dev/null (no pipe, no copy goroutine)
	Env           []string
	// Wrap is the rsswrap binary to start the process through; empty for
	// the fallback that times and measures the child from the harness.
	Wrap string
}

// wrapReport is the line rsswrap writes on fd 3.
type wrapReport struct {
	WallNS   *int64 `json:"wall_ns"`
	MaxRSSKB int64  `json:"maxrss_kb"`
	Exit     int    `json:"exit"`
	Signal   int    `json:"signal"`
	Error    string `json:"error"`
}

// runProcess runs name with args and times it as a whole process. A non-zero
// exit is not an error here: the caller decides, and sample.Exit carries the
// code.
//
// With opts.Wrap the process is started by rsswrap, which times it from just
// before its fork to wait4 returning and reports its ru_maxrss. Without it
// the harness does the same around exec.Cmd's Start and Wait, but then the
// peak RSS is wrong on Linux: Go forks with CLONE_VM|CLONE_VFORK and the
// kernel folds the high-water mark of the address space being replaced into
// the child's ru_maxrss at execve, so every child is at least as big as the
// harness was. rsswrap's own ~2 MB is the floor instead.
func runProcess(ctx context.Context, opts runOpts, name string, args ...string) (sample, error) {
	if opts.Wrap != "" {
		return runWrapped(ctx, opts, name, args...)
	}
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = opts.Dir
	cmd.Env = opts.Env
	var stdout, stderr bytes.Buffer
	if !opts.DiscardStdout {
		cmd.Stdout = &stdout
	}
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return sample{}, fmt.Errorf("start %s: %w", name, err)
	}
	err := cmd.Wait()
	wall := time.Since(start)
	s := sample{Wall: wall, Stdout: stdout.Bytes(), Stderr: stderr.Bytes()}
	if cmd.ProcessState != nil {
		s.Exit = cmd.ProcessState.ExitCode()
		s.MaxRSSKB = maxRSSKB(cmd.ProcessState)
	}
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return s, fmt.Errorf("wait for %s: %w", name, err)
	}
	if ctx.Err() != nil {
		return s, ctx.Err()
	}
	return s, nil
}

// runWrapped runs name through rsswrap and takes the wall time, peak RSS and
// exit status from its report.
func runWrapped(ctx context.Context, opts runOpts, name string, args ...string) (sample, error) {
	path := name
	if filepath.Base(name) == name {
		p, err := exec.LookPath(name)
		if err != nil {
			return sample{}, fmt.Errorf("start %s: %w", name, err)
		}
		path = p
	}
	rd, wr, err := os.Pipe()
	if err != nil {
		return sample{}, fmt.Errorf("report pipe: %w", err)
	}
	defer rd.Close()
	cmd := exec.CommandContext(ctx, opts.Wrap, append([]string{path}, args...)...)
	cmd.Dir = opts.Dir
	cmd.Env = opts.Env
	cmd.ExtraFiles = []*os.File{wr} // fd 3 in rsswrap
	// On cancellation rsswrap passes SIGTERM on to the child and still
	// reports; it is killed only if that takes too long.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 10 * time.Second
	var stdout, stderr bytes.Buffer
	if !opts.DiscardStdout {
		cmd.Stdout = &stdout
	}
	cmd.Stderr = &stderr
	err = cmd.Start()
	wr.Close()
	if err != nil {
		return sample{}, fmt.Errorf("start rsswrap for %s: %w", name, err)
	}
	waitErr := cmd.Wait()
	// rsswrap has exited and its child never had the pipe (close-on-exec),
	// so the read ends at EOF; the deadline is only a guard.
	_ = rd.SetReadDeadline(time.Now().Add(5 * time.Second))
	line, readErr := io.ReadAll(rd)
	s := sample{Stdout: stdout.Bytes(), Stderr: stderr.Bytes()}
	if ctx.Err() != nil {
		return s, ctx.Err()
	}
	var rep wrapReport
	if err := json.Unmarshal(bytes.TrimSpace(line), &rep); err != nil || (rep.WallNS == nil && rep.Error == "") {
		msg := fmt.Sprintf("rsswrap gave no report for %s", name)
		if readErr != nil {
			msg += fmt.Sprintf(" (%v)", readErr)
		}
		if waitErr != nil {
			msg += fmt.Sprintf(": %v", waitErr)
		}
		if l := lastLine(s.Stderr); l != "" {
			msg += ": " + l
		}
		return s, errors.New(msg)
	}
	if rep.Error != "" {
		return s, fmt.Errorf("rsswrap: %s", rep.Error)
	}
	s.Wall = time.Duration(*rep.WallNS)
	s.MaxRSSKB = rep.MaxRSSKB
	s.Exit = rep.Exit
	s.Signal = rep.Signal
	if s.Signal != 0 {
		s.Exit = -1
	}
	return s, nil
}

// describeFailure renders a failed run for the report: the exit code and the
// last line of stderr (or stdout when stderr is empty).
func describeFailure(s sample) string {
	msg := lastLine(s.Stderr)
	if msg == "" {
		msg = lastLine(s.Stdout)
	}
	status := fmt.Sprintf("exit %d", s.Exit)
	if s.Signal != 0 {
		status = fmt.Sprintf("killed by signal %d", s.Signal)
	}
	if msg == "" {
		return status
	}
	return status + ": " + msg
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	line := strings.TrimSpace(lines[len(lines)-1])
	const maxLen = 200
	if len(line) > maxLen {
		line = line[:maxLen] + "…"
	}
	return line
}
