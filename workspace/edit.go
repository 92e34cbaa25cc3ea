package workspace

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	toml2 "github.com/pelletier/go-toml/v2"

	"github.com/autorag/autorag/internal/userfile"
)

// header opens a workspace file autorag creates.
const header = "# autorag workspace: the roots `autorag mcp --workspace all` and `autorag serve --workspace all` serve.\n# Edit with `autorag workspace add|remove`, or by hand.\n"

// Edited is the workspace file after an edit, and what the edit did.
type Edited struct {
	*File
	Written string // the file written (a symbolic link's target)
	Backup  string // the copy of the old content
}

// editOptions: the file is private to its user, as is its directory.
var editOptions = userfile.Options{Perm: 0o600, DirPerm: 0o700, Backup: userfile.BackupLatest}

// AddRoot adds r to the workspace file at path (see File.Add for what is
// refused). The file is read and written under its lock, so concurrent
// adds all land; the new root is appended as a table, so the user's
// comments and layout survive; the old file is backed up first.
func AddRoot(ctx context.Context, path string, r Root) (*Edited, error) {
	return update(ctx, path, func(f *File, old []byte) ([]byte, error) {
		if err := f.Add(r); err != nil {
			return nil, err
		}
		return appendRoot(old, f.Roots[r.Name])
	})
}

// RemoveRoot drops the root of that name from the workspace file at path,
// cutting its table out of the text and keeping everything else.
func RemoveRoot(ctx context.Context, path, name string) (*Edited, error) {
	return update(ctx, path, func(f *File, old []byte) ([]byte, error) {
		if err := f.Remove(name); err != nil {
			return nil, err
		}
		return cutRoot(old, name)
	})
}

// update edits the file under its lock: change applies to the parsed file
// and returns the new text, which must parse strictly to exactly the
// changed roots before it is written.
func update(ctx context.Context, path string, change func(f *File, old []byte) ([]byte, error)) (*Edited, error) {
	var f *File
	res, err := userfile.Edit(ctx, path, editOptions, func(old []byte) ([]byte, error) {
		var err error
		if f, err = parse(path, old); err != nil {
			return nil, err
		}
		out, err := change(f, old)
		if err != nil {
			return nil, err
		}
		if err := same(path, out, f); err != nil {
			return nil, err
		}
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	return &Edited{File: f, Written: res.Path, Backup: res.Backup}, nil
}

// same checks that out parses, with a strict TOML parser and as a
// workspace file, to the roots of want.
func same(path string, out []byte, want *File) error {
	var strict map[string]any
	if err := toml2.Unmarshal(out, &strict); err != nil {
		return fmt.Errorf("workspace file %s: the edited file would not be valid TOML (%v): edit it by hand", path, err)
	}
	got, err := parse(path, out)
	if err != nil {
		return fmt.Errorf("%w (after the edit: edit it by hand)", err)
	}
	if !reflect.DeepEqual(got.Roots, want.Roots) {
		return fmt.Errorf("workspace file %s: its layout cannot be edited as text without changing other roots: edit it by hand", path)
	}
	return nil
}

// appendRoot appends r's table to the file's text (a new file gets the
// header first).
func appendRoot(old []byte, r Root) ([]byte, error) {
	var body bytes.Buffer
	if err := toml.NewEncoder(&body).Encode(r); err != nil {
		return nil, fmt.Errorf("encode root %s: %w", r.Name, err)
	}
	out := bytes.Clone(old)
	if len(out) == 0 {
		out = append(out, header...)
	}
	if !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	out = append(out, '\n')
	out = append(out, "[roots."+tableKey(r.Name)+"]\n"...)
	return append(out, body.Bytes()...), nil
}

// tableKey is name as a TOML key: bare when it can be, else quoted.
func tableKey(name string) string {
	if regexp.MustCompile(`^[A-Za-z0-9_-]+$`).MatchString(name) {
		return name
	}
	return strconv.Quote(name)
}

// cutRoot removes the table [roots.NAME] from the text: its header line
// up to the next table's header, keeping the comment lines just above
// that header (they speak of it).
func cutRoot(old []byte, name string) ([]byte, error) {
	lines := strings.SplitAfter(string(old), "\n")
	key := regexp.QuoteMeta(name)
	head := regexp.MustCompile(`^\s*\[\s*roots\s*\.\s*(` + key + `|"` + key + `"|'` + key + `')\s*\]\s*(#.*)?$`)
	anyHead := regexp.MustCompile(`^\s*\[`)
	start := -1
	for i, l := range lines {
		if head.MatchString(strings.TrimRight(l, "\r\n")) {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, fmt.Errorf("root %s is not written as a [roots.%s] table, so it cannot be cut out as text: edit the file by hand", name, name)
	}
	end := len(lines)
	for i := start + 1; i < len(lines); i++ {
		if anyHead.MatchString(lines[i]) {
			end = i
			break
		}
	}
	for end > start+1 && strings.HasPrefix(strings.TrimSpace(lines[end-1]), "#") {
		end--
	}
	out := strings.Join(lines[:start], "") + strings.Join(lines[end:], "")
	return []byte(out), nil
}
