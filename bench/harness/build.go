package main

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// buildCLI builds ./cmd/autorag (relative to the working directory, which
// should be the repository root) into the work directory.
func buildCLI(ctx context.Context, work string) (string, error) {
	out := filepath.Join(work, "autorag")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, "./cmd/autorag")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/autorag (run the harness from the repository root): %w\n%s", err, b)
	}
	return out, nil
}

const helloSource = `package main

import "fmt"

func main() { fmt.Println("hello, world") }
`

// buildHello builds a hello-world Go binary: the floor for starting any Go
// process on this machine.
func buildHello(ctx context.Context, work string) (string, error) {
	dir := filepath.Join(work, "hello")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("create hello dir: %w", err)
	}
	files := map[string]string{"go.mod": "module hello\n\ngo 1.22\n", "main.go": helloSource}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			return "", fmt.Errorf("write hello %s: %w", name, err)
		}
	}
	out := filepath.Join(dir, "hello")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build hello-world: %w\n%s", err, b)
	}
	return out, nil
}

// rsswrapSource is the wrapper's source (internal/rsswrap), embedded so the
// harness can build it from any working directory, in a module of its own.
//
//go:embed internal/rsswrap/*.go
var rsswrapSource embed.FS

// buildWrapper builds rsswrap into the work directory, next to the autorag
// binary and the hello-world. Measured processes are started through it so
// their peak RSS is not inflated by the harness's own (see proc.go).
func buildWrapper(ctx context.Context, work string) (string, error) {
	if !rsswrapSupported {
		return "", fmt.Errorf("rsswrap needs fork, exec and wait4, which %s lacks", runtime.GOOS)
	}
	dir := filepath.Join(work, "rsswrap")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("create rsswrap dir: %w", err)
	}
	files, err := fs.Glob(rsswrapSource, "internal/rsswrap/*.go")
	if err != nil {
		return "", err
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		b, err := rsswrapSource.ReadFile(name)
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(name)), b, 0o644); err != nil {
			return "", fmt.Errorf("write rsswrap source: %w", err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module rsswrap\n\ngo 1.22\n"), 0o644); err != nil {
		return "", fmt.Errorf("write rsswrap go.mod: %w", err)
	}
	out := filepath.Join(work, "rsswrap", "rsswrap")
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", out, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build rsswrap: %w\n%s", err, b)
	}
	return out, nil
}

// detectCapabilities reads `autorag query --help` for the optional flags.
// A help command that fails leaves every capability off.
func detectCapabilities(ctx context.Context, bin string) capabilities {
	out, err := exec.CommandContext(ctx, bin, "query", "--help").CombinedOutput()
	if err != nil {
		return capabilities{}
	}
	help := string(out)
	return capabilities{
		NoCache: strings.Contains(help, "--no-cache"),
		Mode:    strings.Contains(help, "--mode"),
	}
}

// versionOf returns the first line of `bin --version`, or "" on failure.
func versionOf(ctx context.Context, bin string) string {
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
}
