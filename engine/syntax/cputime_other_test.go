//go:build !unix

package syntax

import "time"

// cpuTime is 0 where getrusage is missing: the CPU figures read 0.
func cpuTime() time.Duration { return 0 }
