package rank

import (
	"path"
	"strings"

	"github.com/autorag/autorag/engine/record"
)

// platformWords name an operating system in a folder or file name
// (win/core.c, unix/linux.c, exec_windows.go, bsd-ifaddrs.c), each with
// the platform it stands for.
var platformWords = map[string]string{
	"win": "windows", "windows": "windows", "win32": "windows", "win64": "windows", "cygwin": "windows", "mingw": "windows",
	"darwin": "darwin", "macos": "darwin", "osx": "darwin", "ios": "darwin",
	"linux": "linux", "android": "linux",
	"bsd": "bsd", "freebsd": "bsd", "netbsd": "bsd", "openbsd": "bsd", "dragonfly": "bsd",
	"aix": "aix", "sunos": "sunos", "solaris": "sunos", "illumos": "sunos", "os390": "zos", "zos": "zos",
	"ibmi": "ibmi", "os400": "ibmi", "haiku": "haiku", "hurd": "hurd", "qnx": "qnx", "plan9": "plan9",
}

// ambiguousPlatform are the platform words that name other things too.
var ambiguousPlatform = map[string]bool{"windows": true, "win": true, "ios": true}

// platformAsks are the query words that ask for a platform, beyond the
// names themselves.
var platformAsks = map[string]string{
	"mac": "darwin", "apple": "darwin", "fsevents": "darwin", "kqueue": "bsd", "inotify": "linux", "epoll": "linux",
	"iocp": "windows", "msvc": "windows",
}

// Platform is the operating system a file is written for, from its path
// (a folder or a word of its name that names one: win/core.c is windows,
// unix/linux.c linux, exec_windows.go windows), or "" for a file of
// every platform. Words are split at '_', '-' and '.', not at capitals
// or digits (os390 stays whole). A name that is only "windows", "win" or
// "ios" says nothing (ui/windows.lua draws windows).
func Platform(p string) string {
	dir, base := path.Split(p)
	words := strings.Split(strings.ToLower(strings.TrimSuffix(dir, "/")), "/")
	name := strings.FieldsFunc(strings.ToLower(fileStem(base)), func(r rune) bool {
		return r == '_' || r == '-' || r == '.'
	})
	if len(name) != 1 || !ambiguousPlatform[name[0]] {
		words = append(words, name...)
	}
	for i := len(words) - 1; i >= 0; i-- {
		if pl, ok := platformWords[words[i]]; ok {
			return pl
		}
	}
	return ""
}

// AskedPlatforms are the platforms the query's words name (platformWords,
// platformAsks).
func AskedPlatforms(text string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if pl, ok := platformWords[w]; ok {
			out[pl] = true
		}
		if pl, ok := platformAsks[w]; ok {
			out[pl] = true
		}
	}
	return out
}

// headerExts and implExts are C-family headers and the files that
// implement them.
var (
	headerExts = map[string]bool{".h": true, ".hh": true, ".hpp": true, ".hxx": true, ".h++": true}
	implExts   = map[string]bool{".c": true, ".cc": true, ".cpp": true, ".cxx": true, ".c++": true, ".m": true, ".mm": true}
)

// Implemented reports the C-family headers among paths whose name an
// implementation file among paths shares (idna.h with idna.c, in any
// folder): the header declares what the other file defines.
func Implemented(paths []string) map[string]bool {
	impl := map[string]bool{}
	for _, p := range paths {
		if implExts[strings.ToLower(path.Ext(p))] {
			impl[strings.TrimSuffix(path.Base(p), path.Ext(p))] = true
		}
	}
	out := map[string]bool{}
	for _, p := range paths {
		if headerExts[strings.ToLower(path.Ext(p))] && impl[strings.TrimSuffix(path.Base(p), path.Ext(p))] {
			out[p] = true
		}
	}
	return out
}

// Factors of the variants (variant), chosen on codesearch-dev
// (docs/QUALITY.md).
var (
	PlatformFactor = 0.7
	HeaderFactor   = 0.6
)

// variant says what makes the file at p a variant of the code the query
// asks for: a platform the query does not name ("windows file"), or a
// header whose implementation is in the window ("header"); "" for none.
func variant(p string, asked map[string]bool, headers map[string]bool) string {
	if pl := Platform(p); pl != "" && !asked[pl] {
		return pl + " file"
	}
	if headers[p] {
		return "header of an implementation file"
	}
	return ""
}

func variantFactor(v string) float64 {
	switch {
	case v == "":
		return 1
	case strings.HasPrefix(v, "header"):
		return HeaderFactor
	}
	return PlatformFactor
}

// implementedHeaders are the headers of the window's files whose
// implementation is there too (Implemented), for a query that is not an
// identifier's (a declaration is what a symbol's query may want).
func implementedHeaders(top []Fused, kind Kind) map[string]bool {
	if kind == KindIdentifier {
		return nil
	}
	return Implemented(windowPaths(top))
}

// windowPaths are the paths of the window's chunks, one for each chunk.
func windowPaths(top []Fused) []string {
	paths := make([]string, len(top))
	for i, x := range top {
		paths[i] = record.ChunkPath(x.ID)
	}
	return paths
}
