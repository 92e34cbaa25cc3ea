package copies

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// signSample is a text long enough (over sketchSize shingles) that the
// bottom-k sketch keeps only some of its shingles: which ones depends on
// the hash, so a per-process hash seed shows.
var signSample = strings.Repeat("the quick brown fox jumps over the lazy dog number ", 4) +
	strings.Join(strings.Fields(strings.Repeat("alpha beta gamma delta epsilon zeta eta theta iota kappa ", 30)), " x ")

// TestSignSameInEveryProcess: two processes sign a text alike, so which
// results collapse as copies (a similarity near the thresholds) does not
// change from one `autorag query` to the next.
func TestSignSameInEveryProcess(t *testing.T) {
	if os.Getenv("AUTORAG_SIGN_CHILD") == "1" {
		fmt.Print(Sign(signSample))
		return
	}
	want := fmt.Sprint(Sign(signSample))
	for range 3 {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestSignSameInEveryProcess$")
		cmd.Env = append(os.Environ(), "AUTORAG_SIGN_CHILD=1")
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSuffix(strings.TrimSpace(string(out)), "PASS"); !strings.HasPrefix(got, want) {
			t.Fatalf("another process signs the text differently:\n got %.120s\nwant %.120s", got, want)
		}
	}
}
