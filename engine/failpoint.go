package engine

import (
	"fmt"
	"os"
	"strings"
	"syscall"
)

// FailpointEnv names the environment variable that stops a refresh at a
// named point, for the crash and concurrency tests: "NAME" kills the
// process with SIGKILL there; "NAME:pause" says so on stderr and blocks
// until the process is killed. Points: "after-mirror", "mid-generation",
// "before-sidecar", "after-sidecar".
const FailpointEnv = "AUTORAG_FAILPOINT"

// failpoint acts when the environment names this point.
func failpoint(name string) {
	v := os.Getenv(FailpointEnv)
	if v == "" {
		return
	}
	point, mode, _ := strings.Cut(v, ":")
	if point != name {
		return
	}
	if mode == "pause" {
		fmt.Fprintf(os.Stderr, "autorag: paused at %s\n", name)
		select {}
	}
	_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {} // the signal is delivered asynchronously
}
