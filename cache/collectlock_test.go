package cache

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// embHolder becomes the writer of identity id's cache in dir (one vector
// put and flushed), says "held", and holds the writer lock until killed.
func embHolder(dir, id string) error {
	c, err := OpenEmbeddings(dir, id)
	if err != nil {
		return err
	}
	if err := c.Put(testHash(1), testVec(1, 8)); err != nil {
		return err
	}
	if err := c.Flush(); err != nil {
		return err
	}
	fmt.Println("held")
	time.Sleep(time.Minute)
	return nil
}

// TestCollectKeepsOtherWritersLock: a Collect over the cap, which drops
// the directories of other identities, keeps the writer.lock another
// process holds in one of them (and the directory holding it): removing
// it let a third process lock a new file of the same name and write the
// same identity beside the holder.
func TestCollectKeepsOtherWritersLock(t *testing.T) {
	dir := t.TempDir()
	holder := helper(t, "emb-holder", dir, "held-elsewhere")
	out, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = holder.Process.Kill(); _ = holder.Wait() })
	if sc := bufio.NewScanner(out); !sc.Scan() || sc.Text() != "held" {
		t.Fatalf("the holder did not start writing: %q", sc.Text())
	}

	c := openEmb(t, dir, "collector")
	putRange(t, c, 0, 10, 8)
	if _, err := c.Collect(func([32]byte) bool { return true }, 0); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	held := filepath.Join(dir, dirName("held-elsewhere", 16), writerLockName)
	if _, err := os.Stat(held); err != nil {
		t.Errorf("the collection removed the writer lock another process holds: %v", err)
	}
	third, err := OpenEmbeddings(dir, "held-elsewhere")
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	if err := third.Put(testHash(2), testVec(2, 8)); !errors.Is(err, ErrWriterBusy) {
		t.Fatalf("a second writer of the identity another process writes: Put = %v, want ErrWriterBusy", err)
	}
}

// TestDiscard: a writer's Discard removes its identity's files but the
// writer lock, and writes nothing buffered; a reader's removes nothing.
func TestDiscard(t *testing.T) {
	dir := t.TempDir()
	w := openEmb(t, dir, "kept")
	putRange(t, w, 0, 10, 4)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	reader := openEmb(t, dir, "kept")
	if err := reader.Discard(); err != nil {
		t.Fatal(err)
	}
	if left := dataLeft(identityDir(dir, "kept")); len(left) == 0 {
		t.Fatal("a reader's Discard removed the files")
	}
	w = openEmb(t, dir, "dropped")
	putRange(t, w, 0, 10, 4)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	putRange(t, w, 10, 20, 4) // buffered, never written
	if err := w.Discard(); err != nil {
		t.Fatal(err)
	}
	if left := dataLeft(identityDir(dir, "dropped")); len(left) > 0 {
		t.Fatalf("a writer's Discard left %v", left)
	}
	if _, err := os.Stat(filepath.Join(identityDir(dir, "dropped"), writerLockName)); err != nil {
		t.Fatalf("Discard removed the writer lock: %v", err)
	}
}
