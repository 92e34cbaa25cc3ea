package fingerprint

import (
	"fmt"
	"os"
	"time"
)

// Settling waits, at most settleWait, in steps of settleStep: a few ticks
// of the coarse clock the kernel stamps files with (1 to 10 ms). A file
// system whose timestamps are coarser (whole seconds) outlasts it, and its
// commits stay unsettled, as they were before WriteSidecar settled.
const (
	settleWait = 50 * time.Millisecond
	settleStep = time.Millisecond
)

// newestMtime is the latest recorded modification time of arts (0: none).
func newestMtime(arts []Artifact) int64 {
	var newest int64
	for _, a := range arts {
		newest = max(newest, a.MtimeNS)
	}
	return newest
}

// settleAfter gives the temporary sidecar f, whose first byte is first, a
// modification time later than newest, the latest recorded artifact's, so
// that the commit it makes is settled (see Settled). The time must be one
// the kernel stamps (a write), never one set from the process's clock: a
// kernel stamp later than newest means the file clock has left newest's
// tick, so that any later write of an artifact is stamped later still and
// differs from its recorded time. Setting a time would prove nothing of
// the sort. f is rewritten in place (its first byte with itself) until its
// stamp is later: at once on a kernel with fine-grained stamps for files
// just stat'ed (Linux 6.13+), after the next tick of the coarse clock
// otherwise. It sleeps between tries, and gives up after settleWait with no
// error, leaving f as new as some artifact: the commit is then simply not
// settled.
func settleAfter(f *os.File, first byte, newest int64) error {
	start := time.Now()
	for try := 0; ; try++ {
		fi, err := f.Stat()
		if err != nil {
			return fmt.Errorf("settle: %w", err)
		}
		if fi.ModTime().UnixNano() > newest {
			return nil
		}
		if try > 0 {
			if time.Since(start) > settleWait {
				return nil
			}
			time.Sleep(settleStep)
		}
		if _, err := f.WriteAt([]byte{first}, 0); err != nil {
			return fmt.Errorf("settle: %w", err)
		}
	}
}
