package rank

import "strings"

// Role is what a file is for, from the path conventions of the common
// ecosystems (FileRole).
type Role string

// File roles.
const (
	RoleSource    Role = "source"
	RoleTest      Role = "test" // tests and what only tests use: fixtures, mocks, snapshots, test helpers
	RoleBench     Role = "benchmark"
	RoleDocs      Role = "docs"
	RoleExample   Role = "example" // examples, tutorials, demos, samples, playgrounds, storybook stories
	RoleChangelog Role = "changelog"
	RoleGenerated Role = "generated" // protoc and other generators' output, lock files, minified and bundled files
	RoleVendored  Role = "vendored"
	RoleStub      Role = "stub" // type declarations beside the code: .pyi, .d.ts, .rbi, typings/
)

// FileRole is the role of the file at p (slash-separated, relative to the
// root), decided in this order:
//
//  1. a folder of vendored code anywhere in the path (vendor/,
//     node_modules/, third_party/, ...): vendored, whatever the file;
//  2. the file's own name (nameRole): a test, benchmark or example file,
//     a changelog, generated code or a lock file, a type stub, a docs
//     site's configuration;
//  3. a Lua file under a types/ folder: a type stub (LuaLS's ---@meta
//     definition files);
//  4. the innermost folder that names a role (dirRole): tests/,
//     __tests__/, FooTests/, Foo.Tests/, src/jvmTest/, benches/, docs/,
//     examples/, dist/ (of JavaScript and CSS), ... (under a JVM main
//     source set only generated folders: scanDirs);
//  5. a text document (.md, .rst, .txt, ..., README, LICENSE): docs;
//  6. anything else is source.
//
// It reads p without allocating: CodeRerank asks it for every distinct
// file of a query's window.
func FileRole(p string) Role {
	dir, base := "", p
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		dir, base = p[:i], p[i+1:]
	}
	inner, vendored, luaTypes := scanDirs(dir, base)
	if vendored {
		return RoleVendored
	}
	if r := nameRole(base); r != "" {
		return r
	}
	if luaTypes {
		return RoleStub
	}
	if inner != "" {
		return inner
	}
	if isDocFile(base) {
		return RoleDocs
	}
	return RoleSource
}

// scanDirs walks the folders of dir outermost first: the role of the
// innermost one that names one, whether any is vendored, and whether a
// Lua file (base) sits under types/. The folders under a JVM main source
// set (src/main/java/..., src/commonMain/kotlin/...) are a package's
// name: java/security/spec/ or io/kotest/core/spec/ is no test folder,
// only generated and vendored folders count there.
func scanDirs(dir, base string) (inner Role, vendored, luaTypes bool) {
	lua := hasSuffixFold(base, ".lua")
	pkg := false
	for top := true; dir != ""; top = false {
		seg := dir
		if i := strings.IndexByte(dir, '/'); i >= 0 {
			seg, dir = dir[:i], dir[i+1:]
		} else {
			dir = ""
		}
		r := dirRole(seg, top, base)
		switch {
		case r == RoleVendored:
			return "", true, false
		case lua && seg == "types":
			luaTypes = true
		case pkg && r != RoleGenerated:
			continue
		}
		if r != "" {
			inner = r
		}
		pkg = pkg || isMainSourceSet(seg)
	}
	return inner, false, luaTypes
}

// isMainSourceSet: Maven's and Gradle's main, Kotlin Multiplatform's
// commonMain, jvmMain, iosMain...
func isMainSourceSet(seg string) bool {
	return seg == "main" || len(seg) > 4 && strings.HasSuffix(seg, "Main") && !isUpperASCII(seg[len(seg)-5])
}

// roleDirs name a role by a folder (lowercase) anywhere in the path.
var roleDirs = map[string]Role{
	// Tests everywhere (Go's testdata, Jest's __tests__, __mocks__ and
	// __snapshots__, RSpec's and busted's spec, Perl's and git's t, LLVM's
	// unittests, GHC's testsuite, Cucumber's step_definitions, Cypress,
	// client-go's generated fakes).
	"test": RoleTest, "tests": RoleTest, "__tests__": RoleTest, "__test__": RoleTest, "spec": RoleTest, "specs": RoleTest,
	"testing": RoleTest, "testdata": RoleTest, "test-suite": RoleTest, "testsuite": RoleTest, "unittests": RoleTest,
	"t": RoleTest, "e2e": RoleTest, "cypress": RoleTest, "step_definitions": RoleTest, "fuzz_targets": RoleTest,
	"fixtures": RoleTest, "fixture": RoleTest, "__fixtures__": RoleTest, "testfixtures": RoleTest,
	"mocks": RoleTest, "__mocks__": RoleTest, "__snapshots__": RoleTest,
	"testutil": RoleTest, "testutils": RoleTest, "testhelpers": RoleTest, "testenv": RoleTest, "testlib": RoleTest,
	"testkit": RoleTest, "testsupport": RoleTest, "fake": RoleTest, "fakes": RoleTest,
	// Benchmarks: cargo's benches, JMH's src/jmh, asv's and Go's benchmarks.
	"bench": RoleBench, "benches": RoleBench, "benchmark": RoleBench, "benchmarks": RoleBench, "benchmarking": RoleBench,
	"jmh": RoleBench,
	// Docs and docs sites (Docusaurus's website/, Rails' guides/).
	"docs": RoleDocs, "doc": RoleDocs, "documentation": RoleDocs, "website": RoleDocs, "docsite": RoleDocs,
	"docs-site": RoleDocs, "guides": RoleDocs, "wiki": RoleDocs, "apidocs": RoleDocs, "api-docs": RoleDocs, "javadoc": RoleDocs,
	// Examples (FastAPI's docs_src, Go's _examples, Storybook).
	"examples": RoleExample, "example": RoleExample, "_examples": RoleExample, "samples": RoleExample, "sample": RoleExample,
	"tutorial": RoleExample, "tutorials": RoleExample, "demo": RoleExample, "demos": RoleExample, "docs_src": RoleExample,
	"playground": RoleExample, "playgrounds": RoleExample, "cookbook": RoleExample, "cookbooks": RoleExample,
	"quickstart": RoleExample, "quickstarts": RoleExample, "stories": RoleExample, "storybook": RoleExample, ".storybook": RoleExample,
	"__stories__": RoleExample,
	// Changelog entries (restic's changelog/, towncrier's changelog.d and
	// newsfragments, reno's releasenotes, changesets, CPython's NEWS.d).
	"changelog": RoleChangelog, "changelogs": RoleChangelog, "changes": RoleChangelog, "changelog.d": RoleChangelog,
	"newsfragments": RoleChangelog, "releasenotes": RoleChangelog, "release-notes": RoleChangelog, "release_notes": RoleChangelog,
	".changeset": RoleChangelog, "news.d": RoleChangelog, "whatsnew": RoleChangelog,
	// Vendored code.
	"vendor": RoleVendored, "vendored": RoleVendored, "_vendor": RoleVendored, "third_party": RoleVendored, "thirdparty": RoleVendored,
	"third-party": RoleVendored, "3rdparty": RoleVendored, "3rd_party": RoleVendored, "3rd-party": RoleVendored,
	"node_modules": RoleVendored, "bower_components": RoleVendored, "jspm_packages": RoleVendored,
	"site-packages": RoleVendored,
	// Generators' output (Relay's __generated__, Maven's generated-sources,
	// frameworks' build folders, Mix's, rebar3's and Sphinx's _build, Dart's
	// and Zig's caches, coverage reports).
	"generated": RoleGenerated, "__generated__": RoleGenerated, "_generated": RoleGenerated, "generated-sources": RoleGenerated,
	"generated_sources": RoleGenerated, ".next": RoleGenerated, ".nuxt": RoleGenerated, ".svelte-kit": RoleGenerated,
	".docusaurus": RoleGenerated, "storybook-static": RoleGenerated, "htmlcov": RoleGenerated, "_build": RoleGenerated,
	".dart_tool": RoleGenerated, "zig-out": RoleGenerated, "zig-cache": RoleGenerated, ".zig-cache": RoleGenerated,
	// Type declarations.
	"typings": RoleStub, "@types": RoleStub, "stubs": RoleStub, "flow-typed": RoleStub,
}

var roleDirsFold = newFoldMap(roleDirs)

// dirAffixes name a role by how a folder's name (lowercase) begins or
// ends: test_data/, integration_tests/, Foo.Tests/, e2e-tests/,
// Foo.Benchmarks/, example-app/, Xcode's Foo.playground/, requests-stubs/
// (PEP 561).
var dirAffixes = newAffixTable([]affix{
	{"test_", "", RoleTest, true}, {"test-", "", RoleTest, true}, {"tests_", "", RoleTest, true}, {"tests-", "", RoleTest, true},
	{"_test", "", RoleTest, false}, {"-test", "", RoleTest, false}, {".test", "", RoleTest, false},
	{"_tests", "", RoleTest, false}, {"-tests", "", RoleTest, false}, {".tests", "", RoleTest, false}, {".specs", "", RoleTest, false},
	{"_bench", "", RoleBench, false}, {"-bench", "", RoleBench, false}, {".benchmarks", "", RoleBench, false},
	{"_benchmarks", "", RoleBench, false}, {"-benchmarks", "", RoleBench, false},
	{"example-", "", RoleExample, true}, {"example_", "", RoleExample, true}, {"examples-", "", RoleExample, true},
	{"examples_", "", RoleExample, true}, {"-example", "", RoleExample, false}, {"_example", "", RoleExample, false},
	{"-examples", "", RoleExample, false}, {".playground", "", RoleExample, false}, {"-stubs", "", RoleStub, false},
})

// dirRole is the role a folder's name gives to the file base, or "". top:
// the folder is the first of the path.
func dirRole(seg string, top bool, base string) Role {
	if r, ok := roleDirsFold.get(seg); ok {
		return r
	}
	switch {
	case equalFold(seg, "dist") && isWebOutput(base):
		return RoleGenerated // a package's built JavaScript (a Python package named dist stays source)
	case top && equalFold(seg, "site"):
		return RoleDocs // a project's web site (MkDocs, Jekyll)
	case top && (equalFold(seg, "deps") || equalFold(seg, "extern")):
		return RoleVendored // node's and Redis's deps/, Mix's deps/ (a Go package named deps stays source)
	case seg == "Pods" || seg == "Carthage":
		return RoleVendored // CocoaPods' and Carthage's checkouts
	case camelTest(seg):
		return RoleTest
	case len(seg) > len("Benchmarks") && strings.HasSuffix(seg, "Benchmarks"):
		return RoleBench // .NET's Foo.Benchmarks, FooBenchmarks
	}
	if !hasSeparator(seg) {
		return "" // every affix holds a _, - or .
	}
	return dirAffixes.match(seg, "")
}

// camelTest: a folder named as a test source set or test target:
// src/jvmTest, src/androidTest, src/integrationTest, src/testFixtures,
// MyAppTests, MyAppUITests (case matters: latest/ and contest/ are not).
func camelTest(seg string) bool {
	for _, s := range [...]string{"Test", "Tests"} {
		if len(seg) > len(s) && strings.HasSuffix(seg, s) {
			return true
		}
	}
	return len(seg) > 4 && strings.HasPrefix(seg, "test") && isUpperASCII(seg[4])
}

// isWebOutput: a file a JavaScript build writes (dist/ holds it).
func isWebOutput(base string) bool {
	for _, e := range [...]string{".js", ".mjs", ".cjs", ".css", ".map", ".html", ".ts"} {
		if hasSuffixFold(base, e) {
			return true
		}
	}
	return false
}
