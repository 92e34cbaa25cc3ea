package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// machineInfo describes where the numbers were measured.
type machineInfo struct {
	CPU        string
	Cores      int
	Memory     string
	GoVersion  string
	Kernel     string
	Filesystem string
	Date       string
	Autorag    string
	Commit     string
}

func describeMachine(ctx context.Context, work, bin string) machineInfo {
	return machineInfo{
		CPU:        cpuModel(),
		Cores:      runtime.NumCPU(),
		Memory:     memTotal(),
		GoVersion:  goVersion(ctx),
		Kernel:     kernel(),
		Filesystem: filesystemType(work),
		Date:       time.Now().UTC().Format("2006-01-02 15:04 MST"),
		Autorag:    orUnknown(versionOf(ctx, bin)),
		Commit:     gitCommit(ctx),
	}
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(key) == "model name" {
			return strings.TrimSpace(value)
		}
	}
	return runtime.GOARCH
}

func memTotal() string {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return "unknown"
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		fields := strings.Fields(line)
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				break
			}
			return fmt.Sprintf("%.1f GiB", float64(kb)/(1<<20))
		}
	}
	return "unknown"
}

// goVersion is the toolchain that builds the CLI (`go version`), which may
// differ from the one running the harness.
func goVersion(ctx context.Context) string {
	out, err := exec.CommandContext(ctx, "go", "version").Output()
	if err != nil {
		return runtime.Version() + " (harness)"
	}
	return strings.TrimPrefix(strings.TrimSpace(string(out)), "go version ")
}

func kernel() string {
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return runtime.GOOS
	}
	return runtime.GOOS + " " + strings.TrimSpace(string(b))
}

// gitCommit is the checked-out commit, read-only (`git rev-parse`).
func gitCommit(ctx context.Context) string {
	out, err := exec.CommandContext(ctx, "git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	return string(bytes.TrimSpace(out))
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
