package ocr

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Lang is the tesseract language every page is read in.
const Lang = "eng"

// DefaultCommand is the program looked up on PATH when no command is set.
const DefaultCommand = "tesseract"

// InstallHint says how to get the program on Debian and Ubuntu.
const InstallHint = "apt-get install tesseract-ocr tesseract-ocr-eng"

// ErrUnavailable reports that OCR cannot run here: the program is missing,
// does not run, or lacks the English data.
var ErrUnavailable = errors.New("ocr unavailable")

// Engine is a tesseract program that was found and runs.
type Engine struct {
	path    string // the program, resolved
	version string // "5.3.0"
}

// Name is the engine and its version, "tesseract@5.3.0": part of the parser
// version of every PDF whose pages it read.
func (e *Engine) Name() string { return "tesseract@" + e.version }

// Path is the program that runs.
func (e *Engine) Path() string { return e.path }

// found caches what Find learnt of a program that works, per resolved
// program, while the file is the same (an upgrade in place is seen by the
// next Find). Failures are not cached: language data installed later is
// seen by the next Find of a long-lived process.
var found sync.Map // path -> foundEntry

type foundEntry struct {
	size    int64
	mtime   time.Time
	version string
	err     error
}

// Find locates the program (command, else DefaultCommand on PATH), learns
// its version and checks its English data.
func Find(ctx context.Context, command string) (*Engine, error) {
	if command == "" {
		command = DefaultCommand
	}
	path, err := exec.LookPath(command)
	if err != nil {
		return nil, fmt.Errorf("%w: %s not found (install it: %s; or set ocr_command)", ErrUnavailable, command, InstallHint)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrUnavailable, path, err)
	}
	if v, ok := found.Load(path); ok {
		f := v.(foundEntry)
		if f.size == fi.Size() && f.mtime.Equal(fi.ModTime()) {
			return engineOf(path, f)
		}
	}
	f := foundEntry{size: fi.Size(), mtime: fi.ModTime()}
	if f.version, f.err = probe(ctx, path); f.err == nil {
		found.Store(path, f)
	}
	return engineOf(path, f)
}

func engineOf(path string, f foundEntry) (*Engine, error) {
	if f.err != nil {
		return nil, f.err
	}
	return &Engine{path: path, version: f.version}, nil
}

// probe runs `--version` and `--list-langs`.
func probe(ctx context.Context, path string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := command(ctx, path, "--version").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%w: %s --version: %v: %s", ErrUnavailable, path, err, firstLine(out))
	}
	version, ok := parseVersion(out)
	if !ok {
		return "", fmt.Errorf("%w: %s --version printed no tesseract version: %q", ErrUnavailable, path, firstLine(out))
	}
	out, err = command(ctx, path, "--list-langs").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%w: %s --list-langs: %v: %s", ErrUnavailable, path, err, firstLine(out))
	}
	if !hasLang(out, Lang) {
		return "", fmt.Errorf("%w: %s has no %q language data (install it: apt-get install tesseract-ocr-eng; or set TESSDATA_PREFIX)", ErrUnavailable, path, Lang)
	}
	return version, nil
}

// parseVersion reads "tesseract 5.3.0" (or "tesseract v5.3.0") from the
// first line of `--version`.
func parseVersion(out []byte) (string, bool) {
	f := strings.Fields(firstLine(out))
	if len(f) < 2 || f[0] != "tesseract" {
		return "", false
	}
	v := strings.TrimPrefix(f[1], "v")
	if v == "" || v[0] < '0' || v[0] > '9' {
		return "", false
	}
	return v, true
}

// hasLang reports whether `--list-langs` output lists lang.
func hasLang(out []byte, lang string) bool {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == lang {
			return true
		}
	}
	return false
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	return s
}

// command is the program with one thread and no window of its own.
func command(ctx context.Context, path string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	cmd.WaitDelay = 2 * time.Second
	return cmd
}

// Recognize returns the text tesseract reads in img, a page rendered at
// dpi dots per inch; the process is killed when ctx is done.
func (e *Engine) Recognize(ctx context.Context, img *image.Gray, dpi int) (string, error) {
	cmd := command(ctx, e.path, "stdin", "stdout", "-l", Lang, "--dpi", strconv.Itoa(dpi))
	cmd.Stdin = bytes.NewReader(pgm(img))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return "", cerr
		}
		return "", fmt.Errorf("tesseract: %v: %s", err, firstLine(stderr.Bytes()))
	}
	return stdout.String(), nil
}

// pgm encodes img as a binary PGM (P5, 8-bit).
func pgm(img *image.Gray) []byte {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	out := make([]byte, 0, w*h+32)
	out = fmt.Appendf(out, "P5\n%d %d\n255\n", w, h)
	for y := 0; y < h; y++ {
		i := img.PixOffset(b.Min.X, b.Min.Y+y)
		out = append(out, img.Pix[i:i+w]...)
	}
	return out
}
