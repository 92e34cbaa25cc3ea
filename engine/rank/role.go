package rank

import (
	"path"
	"slices"
	"strings"
)

// Role is what a file is for, from the path conventions of the common
// ecosystems (FileRole).
type Role string

// File roles.
const (
	RoleSource    Role = "source"
	RoleTest      Role = "test"
	RoleDocs      Role = "docs"
	RoleExample   Role = "example"
	RoleChangelog Role = "changelog"
	RoleGenerated Role = "generated"
	RoleVendored  Role = "vendored"
	RoleStub      Role = "stub"
)

// roleDirs name a role by a folder anywhere in the path.
var roleDirs = map[string]Role{
	"test": RoleTest, "tests": RoleTest, "__tests__": RoleTest, "spec": RoleTest, "specs": RoleTest,
	"testing": RoleTest, "testdata": RoleTest, "test-suite": RoleTest, "jvmtest": RoleTest, "commontest": RoleTest,
	"docs": RoleDocs, "doc": RoleDocs, "documentation": RoleDocs, "docs_src": RoleExample,
	"examples": RoleExample, "example": RoleExample, "samples": RoleExample, "sample": RoleExample,
	"tutorial": RoleExample, "tutorials": RoleExample, "demo": RoleExample, "demos": RoleExample,
	"changelog": RoleChangelog, "changelogs": RoleChangelog, "changes": RoleChangelog,
	"vendor": RoleVendored, "third_party": RoleVendored, "thirdparty": RoleVendored, "node_modules": RoleVendored,
	"generated": RoleGenerated, "typings": RoleStub, "@types": RoleStub,
}

// FileRole is the role of the file at path (slash-separated, relative to
// the root). The file's own name decides first (a test file, a changelog,
// generated code, a type stub, a text document), then a Lua file under
// types/ (a definition file) or its innermost folder that names a role;
// anything else is source.
func FileRole(p string) Role {
	base := path.Base(p)
	if r, ok := nameRole(base); ok {
		return r
	}
	dirs := strings.Split(path.Dir(p), "/")
	if strings.EqualFold(path.Ext(base), ".lua") && slices.Contains(dirs, "types") {
		return RoleStub // LuaLS's definition files (---@meta) sit under types/
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		if r, ok := roleDirs[strings.ToLower(dirs[i])]; ok {
			return r
		}
	}
	if isDocExt(path.Ext(base)) {
		return RoleDocs
	}
	return RoleSource
}

// nameRole is the role a file name alone gives.
func nameRole(base string) (Role, bool) {
	lower := strings.ToLower(base)
	stem := strings.TrimSuffix(lower, path.Ext(lower))
	switch {
	case strings.HasPrefix(stem, "changelog") || strings.HasPrefix(stem, "changes") || strings.HasPrefix(stem, "history") ||
		stem == "news" || strings.HasPrefix(stem, "release_notes") || strings.HasPrefix(stem, "release-notes"):
		return RoleChangelog, true
	case strings.HasSuffix(lower, ".pyi") || strings.HasSuffix(lower, ".d.ts"):
		return RoleStub, true
	case strings.HasSuffix(lower, ".pb.go") || strings.HasSuffix(stem, "_pb2") || strings.HasSuffix(stem, ".gen") ||
		strings.HasSuffix(stem, "_generated") || strings.HasPrefix(stem, "zz_generated") || strings.HasSuffix(lower, ".min.js"):
		return RoleGenerated, true
	case isTestName(base, stem):
		return RoleTest, true
	}
	return "", false
}

// isTestName: Go's _test.go, Python's test_*.py and *_test.py, conftest,
// JavaScript's .test. and .spec., Ruby's _spec, JVM's *Test, *Tests and
// *Spec classes, Elixir's _test.exs.
func isTestName(base, stem string) bool {
	if stem == "conftest" || strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_test") ||
		strings.HasSuffix(stem, "_spec") || strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec") ||
		strings.HasSuffix(stem, "_tests") {
		return true
	}
	orig := strings.TrimSuffix(base, path.Ext(base))
	for _, s := range []string{"Test", "Tests", "Spec", "Suite", "TestCase"} {
		if len(orig) > len(s) && strings.HasSuffix(orig, s) {
			return true
		}
	}
	return false
}

func isDocExt(ext string) bool {
	switch strings.ToLower(ext) {
	case ".md", ".markdown", ".rst", ".adoc", ".txt", ".mdx", ".rdoc", ".org":
		return true
	}
	return false
}

// roleAsks are the query words that ask for a role: a query that says
// "test" wants tests, one about what a version added or fixed wants the
// changelog, and so on.
var roleAsks = map[string]Role{
	"test": RoleTest, "tests": RoleTest, "testing": RoleTest, "tested": RoleTest, "spec": RoleTest, "specs": RoleTest, "unittest": RoleTest,
	"doc": RoleDocs, "docs": RoleDocs, "documentation": RoleDocs, "documented": RoleDocs, "readme": RoleDocs, "guide": RoleDocs,
	"example": RoleExample, "examples": RoleExample, "tutorial": RoleExample, "tutorials": RoleExample, "demo": RoleExample, "sample": RoleExample,
	"changelog": RoleChangelog, "changes": RoleChangelog, "release": RoleChangelog, "released": RoleChangelog, "history": RoleChangelog,
	"version": RoleChangelog, "versions": RoleChangelog, "added": RoleChangelog, "fixed": RoleChangelog, "changed": RoleChangelog,
	"deprecated": RoleChangelog, "breaking": RoleChangelog,
	"generated": RoleGenerated, "vendored": RoleVendored, "vendor": RoleVendored, "stub": RoleStub, "stubs": RoleStub, "typings": RoleStub,
}

// AsksUsage reports a question about using something rather than about
// how it is built: one that opens with "how to" or speaks in the first or
// second person ("how do I", "my program", "can you"). The docs answer it
// as well as the source does, so they are not demoted for it (a docs
// check over cobra's site: docs/QUALITY.md). Words are split at white
// space only: "how to_json serializes" asks about code.
func AsksUsage(text string) bool {
	f := strings.Fields(strings.ToLower(text))
	for i := range f {
		f[i] = strings.Trim(f[i], `?!.,;:'"()`)
	}
	if len(f) >= 2 && f[0] == "how" && f[1] == "to" {
		return true
	}
	for _, w := range f {
		switch w {
		case "i", "my", "you", "your":
			return true
		}
	}
	return false
}

// AskedRoles are the roles the query's words ask for.
func AskedRoles(words []string) map[Role]bool {
	out := map[Role]bool{}
	for _, w := range words {
		if r, ok := roleAsks[w]; ok {
			out[r] = true
		}
	}
	return out
}
