package rank

import "strings"

// affix names a role by how a name (compared in lowercase) begins
// (prefix) or ends, for files of one extension (ext, lowercase, without
// the dot) or any ("").
type affix struct {
	s      string
	ext    string
	role   Role
	prefix bool
}

// stemAffixes name a role by how a file's stem (its name without the last
// extension) begins or ends, first match wins: generated code before tests
// (Dart's foo_test.mocks.dart is mockito's output).
var stemAffixes = newAffixTable([]affix{
	// protoc and gRPC in every language: foo.pb.go, foo_grpc.pb.go,
	// foo.pb.cc, foo.pb.h, foo.pb.swift, foo.pb.dart, foo_pb2.py,
	// foo_pb2_grpc.py, foo_pb.js, foo_pb.d.ts, foo_grpc_pb.js, foo_pb.rb (and
	// foo.pb.gw.go, foo.pb.validate.go: nameRole).
	{".pb", "", RoleGenerated, false}, {"_pb", "", RoleGenerated, false}, {"_pb.d", "ts", RoleGenerated, false}, {"_pb2", "", RoleGenerated, false},
	{"_pb2_grpc", "", RoleGenerated, false}, {".pbenum", "dart", RoleGenerated, false}, {".pbgrpc", "dart", RoleGenerated, false},
	{".pbjson", "dart", RoleGenerated, false}, {".pbserver", "dart", RoleGenerated, false},
	// Dart's build_runner (json_serializable, freezed, auto_route, mockito),
	// C#'s source generators and designers.
	{".g", "dart", RoleGenerated, false}, {".freezed", "dart", RoleGenerated, false}, {".gr", "dart", RoleGenerated, false},
	{".mocks", "dart", RoleGenerated, false}, {".g", "cs", RoleGenerated, false}, {".g.i", "cs", RoleGenerated, false},
	{".designer", "cs", RoleGenerated, false},
	// Generators that say so, Go's conventions, minified and bundled files,
	// .NET's packages.lock.json.
	{".gen", "", RoleGenerated, false}, {".generated", "", RoleGenerated, false}, {"_generated", "", RoleGenerated, false},
	{"-generated", "", RoleGenerated, false}, {"zz_generated", "", RoleGenerated, true}, {"_gen", "go", RoleGenerated, false},
	{"zerrors_", "go", RoleGenerated, true}, {"zsyscall_", "go", RoleGenerated, true}, {"zsysnum_", "go", RoleGenerated, true},
	{"ztypes_", "go", RoleGenerated, true}, {".min", "", RoleGenerated, false}, {".bundle", "", RoleGenerated, false},
	{".chunk", "js", RoleGenerated, false}, {".lock", "", RoleGenerated, false},
	// TypeScript's declaration files and Flow's.
	{".d", "ts", RoleStub, false}, {".d", "mts", RoleStub, false}, {".d", "cts", RoleStub, false}, {".js", "flow", RoleStub, false},
	// Tests: Go's foo_test.go, pytest's test_foo.py and foo_test.py, Jest's
	// and Vitest's foo.test.ts and foo.spec.tsx, RSpec's foo_spec.rb,
	// Angular's and NestJS's foo.e2e-spec.ts, Cypress's foo.cy.ts, tsd's
	// foo.test-d.ts, gtest's foo_unittest.cc, Erlang's foo_SUITE.erl,
	// testthat's test-foo.R, mocks and fixtures.
	{"_test", "", RoleTest, false}, {"_tests", "", RoleTest, false}, {"-test", "", RoleTest, false}, {"-tests", "", RoleTest, false},
	{".test", "", RoleTest, false}, {".tests", "", RoleTest, false}, {"_spec", "", RoleTest, false}, {"-spec", "", RoleTest, false},
	{".spec", "", RoleTest, false}, {".e2e", "", RoleTest, false}, {"_e2e", "", RoleTest, false}, {"-e2e", "", RoleTest, false},
	{".cy", "", RoleTest, false}, {".test-d", "", RoleTest, false}, {"_unittest", "", RoleTest, false},
	{"_unittests", "", RoleTest, false}, {"_suite", "erl", RoleTest, false}, {"_mock", "", RoleTest, false},
	{"_mocks", "", RoleTest, false}, {".mock", "", RoleTest, false}, {".fixture", "", RoleTest, false},
	{".fixtures", "", RoleTest, false}, {"_fixture", "", RoleTest, false}, {"_fixtures", "", RoleTest, false},
	{"test_", "", RoleTest, true}, {"test-", "", RoleTest, true}, {"tests_", "", RoleTest, true}, {"mock_", "", RoleTest, true},
	// Benchmarks: foo_bench.rs, foo.bench.ts (Vitest), bench_foo.py,
	// foo_benchmark.py.
	{"_bench", "", RoleBench, false}, {"-bench", "", RoleBench, false}, {".bench", "", RoleBench, false},
	{"_benchmark", "", RoleBench, false}, {"_benchmarks", "", RoleBench, false}, {".benchmark", "", RoleBench, false},
	{"bench_", "", RoleBench, true}, {"benchmark_", "", RoleBench, true},
	// Examples: Storybook's stories, example_foo.py, foo_example.py.
	{".stories", "", RoleExample, false}, {".story", "", RoleExample, false}, {"_example", "", RoleExample, false},
	{"-example", "", RoleExample, false}, {"example_", "", RoleExample, true},
})

// stemRoles name a role by a whole stem (lowercase).
var stemRoles = map[string]Role{
	"conftest": RoleTest, "test": RoleTest, "tests": RoleTest, "spec_helper": RoleTest, "rails_helper": RoleTest,
	"testutil": RoleTest, "testutils": RoleTest, "testhelper": RoleTest, "testhelpers": RoleTest,
	"setuptests": RoleTest, "jest.setup": RoleTest, "vitest.setup": RoleTest,
	"bench": RoleBench, "benchmark": RoleBench, "benchmarks": RoleBench,
}

// extRoles name a role by an extension (lowercase): lock files, Jest's
// and insta's snapshots, Bats', Perl's and Cucumber's tests, Python's,
// Sorbet's, RBS's and Swift's interface files.
var extRoles = map[string]Role{
	"lock": RoleGenerated, "lockb": RoleGenerated, "lockfile": RoleGenerated,
	"snap": RoleTest, "bats": RoleTest, "t": RoleTest, "feature": RoleTest,
	"pyi": RoleStub, "rbi": RoleStub, "rbs": RoleStub, "swiftinterface": RoleStub,
}

// nameRoles name a role by a whole file name (lowercase): lock files
// without a .lock extension, docs sites' configurations, and buf's
// configuration of its generators (written by hand, though named .gen).
var nameRoles = map[string]Role{
	"buf.gen.yaml": RoleSource, "buf.gen.yml": RoleSource,
	"go.sum": RoleGenerated, "go.work.sum": RoleGenerated, "package-lock.json": RoleGenerated,
	"npm-shrinkwrap.json": RoleGenerated, "pnpm-lock.yaml": RoleGenerated, "package.resolved": RoleGenerated,
	"cartfile.resolved": RoleGenerated, "cabal.project.freeze": RoleGenerated,
	"mkdocs.yml": RoleDocs, "mkdocs.yaml": RoleDocs, "docusaurus.config.js": RoleDocs, "docusaurus.config.ts": RoleDocs,
	"book.toml": RoleDocs, ".readthedocs.yml": RoleDocs, ".readthedocs.yaml": RoleDocs, "doxyfile": RoleDocs,
}

var nameRolesFold, extRolesFold, stemRolesFold = newFoldMap(nameRoles), newFoldMap(extRoles), newFoldMap(stemRoles)

// nameRole is the role a file name alone gives, or "".
func nameRole(base string) Role {
	if r, ok := nameRolesFold.get(base); ok {
		return r
	}
	stem, ext := base, ""
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		stem, ext = base[:i], base[i+1:]
	}
	if (ext == "" || isDocExt(ext)) && hasWordPrefixFold(stem, changelogNames[:]) {
		return RoleChangelog
	}
	if hasSeparator(stem) { // every affix holds a _, - or .
		if r := stemAffixes.match(stem, ext); r != "" {
			return r
		}
		if strings.Contains(stem, ".pb.") {
			return RoleGenerated // foo.pb.gw.go, foo.pb.validate.go
		}
	}
	if r, ok := extRolesFold.get(ext); ok {
		return r
	}
	if r, ok := stemRolesFold.get(stem); ok && !isDocExt(ext) && !(r == RoleTest && equalFold(ext, "go")) {
		return r // BENCHMARKS.md is a document; Go's tests are _test.go, test.go is compiled source
	}
	return camelRole(stem, ext)
}

// changelogNames begin the name of a changelog: CHANGELOG.md, CHANGES,
// HISTORY.rst, NEWS, RELEASES.md, release-notes.md, CHANGELOG-1.x.md. Only
// a text document's (history.go is source).
var changelogNames = [...]string{"changelog", "changes", "history", "news", "releases", "release_notes", "release-notes",
	"releasenotes", "whatsnew", "whats_new"}

// camelRole is the role a stem's case gives, or "": testUtils.ts;
// JUnit's, XCTest's, NUnit's and xUnit's FooTest and FooTests,
// FooTestCase; Maven Surefire's TestFoo and Failsafe's FooIT and
// FooITCase; the Spec and Suite of Scala's test frameworks (also Spock's,
// Hspec's and Quick's Spec: JavaPoet's TypeSpec.java is source); JMH's and
// BenchmarkDotNet's FooBenchmark; protoc's FooOuterClass.java.
func camelRole(stem, ext string) Role {
	for _, s := range [...]string{"Test", "Tests", "TestCase", "TestSuite"} {
		if len(stem) > len(s) && strings.HasSuffix(stem, s) {
			return RoleTest
		}
	}
	n := len(stem)
	switch {
	case n > 4 && (strings.HasPrefix(stem, "test") || strings.HasPrefix(stem, "Test")) && isUpperASCII(stem[4]):
		return RoleTest // testUtils.ts, Surefire's TestFoo.java
	case (n > 2 && strings.HasSuffix(stem, "IT") && isLowerASCII(stem[n-3]) || n > 6 && strings.HasSuffix(stem, "ITCase")) &&
		oneOfFold(ext, "java", "kt", "groovy", "scala"):
		return RoleTest
	case (strings.HasSuffix(stem, "Spec") && n > 4 || strings.HasSuffix(stem, "Specs") && n > 5) &&
		oneOfFold(ext, "scala", "groovy", "hs", "swift"):
		return RoleTest
	case strings.HasSuffix(stem, "Suite") && n > 5 && equalFold(ext, "scala"):
		return RoleTest
	case strings.HasSuffix(stem, "Benchmark") && n > 9 || strings.HasSuffix(stem, "Benchmarks") && n > 10 ||
		strings.HasSuffix(stem, "Bench") && n > 5:
		return RoleBench
	case strings.HasSuffix(stem, "OuterClass") && n > 10 && equalFold(ext, "java"):
		return RoleGenerated
	}
	return ""
}

// affixTable is a list of affixes looked up by a name's first byte (the
// prefixes) and last byte (the suffixes), so that a name is compared with
// the few that could match, in the list's order.
type affixTable struct {
	byFirst, byLast [256][]int // indexes into list
	list            []affix
}

func newAffixTable(list []affix) *affixTable {
	t := &affixTable{list: list}
	for i, a := range list {
		if !hasSeparator(a.s) {
			panic("rank: an affix without a separator would be skipped: " + a.s)
		}
		if a.prefix {
			t.byFirst[a.s[0]] = append(t.byFirst[a.s[0]], i)
		} else {
			t.byLast[a.s[len(a.s)-1]] = append(t.byLast[a.s[len(a.s)-1]], i)
		}
	}
	return t
}

// match is the role of the first affix of the list that name (of
// extension ext) begins or ends with, or "".
func (t *affixTable) match(name, ext string) Role {
	if name == "" {
		return ""
	}
	best := len(t.list)
	for _, i := range t.byFirst[lowerASCII(name[0])] {
		if a := &t.list[i]; extOK(a, ext) && hasPrefixFold(name, a.s) {
			best = i
			break
		}
	}
	for _, i := range t.byLast[lowerASCII(name[len(name)-1])] {
		if i >= best {
			break
		}
		if a := &t.list[i]; extOK(a, ext) && hasSuffixFold(name, a.s) {
			best = i
			break
		}
	}
	if best == len(t.list) {
		return ""
	}
	return t.list[best].role
}

func extOK(a *affix, ext string) bool { return a.ext == "" || equalFold(ext, a.ext) }

// isDocFile: a text document — by its extension (CMakeLists.txt and pip's
// requirements files are not), or a project's README, LICENSE, AUTHORS or
// NOTICE without one.
func isDocFile(base string) bool {
	stem, ext := base, ""
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		stem, ext = base[:i], base[i+1:]
	}
	if ext == "" {
		return hasWordPrefixFold(stem, docNames[:])
	}
	if equalFold(ext, "txt") && (equalFold(stem, "cmakelists") || hasPrefixFold(stem, "requirements") || hasPrefixFold(stem, "constraints")) {
		return false
	}
	return isDocExt(ext)
}

// docNames begin the names of a project's documents without an extension
// (LICENSE, LICENSE-MIT, AUTHORS).
var docNames = [...]string{"readme", "license", "licence", "copying", "authors", "contributors", "contributing",
	"notice", "codeowners", "patents"}

// isDocExt: the extension (without the dot) of a text document.
func isDocExt(ext string) bool {
	return oneOfFold(ext, "md", "markdown", "rst", "adoc", "asciidoc", "txt", "mdx", "rdoc", "org", "textile", "pod")
}
