package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// sample is one timed process run.
type sample struct {
	Wall     time.Duration // exec start to exit
	MaxRSSKB int64
	Exit     int
	Stdout   []byte
	Stderr   []byte
}

// runOpts says how to run a process.
type runOpts struct {
	Dir           string
	DiscardStdout bool // send stdout to /dev/null (no pipe, no copy goroutine)
	Env           []string
}

// runProcess runs name with args and times it as a whole process: the clock
// starts just before the fork and stops when Wait returns. A non-zero exit is
// not an error here: the caller decides, and sample.Exit carries the code.
func runProcess(ctx context.Context, opts runOpts, name string, args ...string) (sample, error) {
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

// describeFailure renders a failed run for the report: the exit code and the
// last line of stderr (or stdout when stderr is empty).
func describeFailure(s sample) string {
	msg := lastLine(s.Stderr)
	if msg == "" {
		msg = lastLine(s.Stdout)
	}
	if msg == "" {
		return fmt.Sprintf("exit %d", s.Exit)
	}
	return fmt.Sprintf("exit %d: %s", s.Exit, msg)
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
