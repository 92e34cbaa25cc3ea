package rank

import "testing"

// roleCases are real paths in each ecosystem's layout, each with the role
// a reader would give it; the names that only look like a role (contest.go,
// latest.py, TypeSpec.java, history.go, a Go package named build or dist)
// stay source.
var roleCases = []struct {
	path string
	want Role
}{
	// Rust (cargo's layout).
	{"src/lib.rs", RoleSource}, {"crates/core/src/lib.rs", RoleSource}, {"build.rs", RoleSource},
	{"src/attestation.rs", RoleSource}, {"tests/integration.rs", RoleTest}, {"src/tests.rs", RoleTest},
	{"src/test_utils.rs", RoleTest}, {"tests/snapshots/parse__expr.snap", RoleTest}, {"fuzz/fuzz_targets/parse.rs", RoleTest},
	{"benches/bench_main.rs", RoleBench}, {"benches/parser.rs", RoleBench}, {"examples/hello.rs", RoleExample},
	{"Cargo.lock", RoleGenerated}, {"LICENSE-MIT", RoleDocs}, {"LICENSE-APACHE", RoleDocs}, {"RELEASES.md", RoleChangelog},
	// TypeScript and JavaScript (Jest, Vitest, Cypress, Playwright,
	// Storybook, Docusaurus, protoc, bundlers).
	{"packages/core/src/index.ts", RoleSource}, {"lib/testing.ts", RoleSource}, {"src/contest.js", RoleSource},
	{"src/router.test.ts", RoleTest}, {"src/components/Button.spec.tsx", RoleTest}, {"src/__tests__/router.ts", RoleTest},
	{"src/__mocks__/fs.js", RoleTest}, {"src/__snapshots__/Button.test.tsx.snap", RoleTest}, {"src/setupTests.ts", RoleTest},
	{"src/testUtils.ts", RoleTest}, {"src/test-utils.tsx", RoleTest}, {"test/fixtures/app.js", RoleTest},
	{"src/__fixtures__/config.json", RoleTest}, {"e2e/app.e2e-spec.ts", RoleTest}, {"cypress/e2e/login.cy.ts", RoleTest},
	{"tests/e2e/login.spec.ts", RoleTest}, {"test-d/index.test-d.ts", RoleTest}, {"src/api.mock.ts", RoleTest},
	{"bench/parse.bench.ts", RoleBench}, {"benchmark/index.js", RoleBench},
	{"src/components/Button.stories.tsx", RoleExample}, {"examples/next-app/pages/index.tsx", RoleExample},
	{"playground/src/App.vue", RoleExample}, {"website/docs/intro.mdx", RoleDocs}, {"website/src/pages/index.js", RoleDocs},
	{"docusaurus.config.js", RoleDocs}, {"types/index.d.ts", RoleStub}, {"src/index.d.mts", RoleStub},
	{"flow-typed/npm/lodash.js", RoleStub}, {"src/index.js.flow", RoleStub},
	{"dist/index.js", RoleGenerated}, {"packages/ui/dist/index.mjs", RoleGenerated}, {"public/vendor.min.js", RoleGenerated},
	{"static/app.bundle.js", RoleGenerated}, {"src/styles/main.min.css", RoleGenerated},
	{"src/__generated__/Query.graphql.ts", RoleGenerated}, {"src/proto/user_pb.js", RoleGenerated},
	{"src/proto/user_grpc_pb.js", RoleGenerated}, {"src/proto/user_pb.d.ts", RoleGenerated},
	{"package-lock.json", RoleGenerated}, {"yarn.lock", RoleGenerated}, {"pnpm-lock.yaml", RoleGenerated},
	{"node_modules/react/index.js", RoleVendored}, {"scripts/build.js", RoleSource}, {"src/builder/build.ts", RoleSource},
	// Python.
	{"fastapi/openapi/utils.py", RoleSource}, {"latest.py", RoleSource}, {"src/inspect.py", RoleSource},
	{"Lib/unittest/mock.py", RoleSource}, {"src/_pytest/fixtures.py", RoleSource}, {"dist/dist.py", RoleSource},
	{"src/pkg/history.py", RoleSource}, {"requirements.txt", RoleSource}, {"requirements-dev.txt", RoleSource},
	{"tests/test_openapi.py", RoleTest}, {"pkg/core_test.py", RoleTest}, {"conftest.py", RoleTest}, {"app/tests.py", RoleTest},
	{"testing/test_fixtures.py", RoleTest}, {"benchmarks/bench_core.py", RoleBench}, {"docs/conf.py", RoleDocs},
	{"docs_src/security/tutorial.py", RoleExample}, {"examples/app.py", RoleExample},
	{"pkg/proto/user_pb2.py", RoleGenerated}, {"pkg/proto/user_pb2_grpc.py", RoleGenerated},
	{"pkg/proto/user_pb2.pyi", RoleGenerated}, {"aiohttp/web.pyi", RoleStub}, {"stubs/requests/api.pyi", RoleStub},
	{"requests-stubs/__init__.py", RoleStub}, {"poetry.lock", RoleGenerated}, {"uv.lock", RoleGenerated},
	{"src/pip/_vendor/six.py", RoleVendored}, {"HISTORY.rst", RoleChangelog}, {"newsfragments/123.feature.rst", RoleChangelog},
	{"Misc/NEWS.d/next/Library/2023-01-01.gh-1.rst", RoleChangelog}, {"Doc/whatsnew/3.12.rst", RoleChangelog},
	// Go.
	{"internal/data/node.go", RoleSource}, {"contest.go", RoleSource}, {"build/builder.go", RoleSource},
	{"pkg/dist/dist.go", RoleSource}, {"internal/deps/deps.go", RoleSource}, {"internal/gen/gen.go", RoleSource},
	{"internal/changes.go", RoleSource}, {"cmd/go/internal/load/test.go", RoleSource}, {"buf.gen.yaml", RoleSource},
	{"api/client.gen.go", RoleGenerated}, {"src/api.gen.ts", RoleGenerated}, {"internal/data/node_test.go", RoleTest}, {"example_test.go", RoleTest},
	{"testdata/golden.json", RoleTest}, {"internal/testutil/db.go", RoleTest}, {"mocks/store.go", RoleTest},
	{"internal/mock_store.go", RoleTest}, {"internal/store_mock.go", RoleTest}, {"_examples/basic/main.go", RoleExample},
	{"api/v1/types.pb.go", RoleGenerated}, {"api/v1/service_grpc.pb.go", RoleGenerated},
	{"api/v1/service.pb.gw.go", RoleGenerated}, {"pkg/apis/v1/zz_generated.deepcopy.go", RoleGenerated},
	{"internal/msg_gen.go", RoleGenerated}, {"unix/zerrors_linux_amd64.go", RoleGenerated}, {"go.sum", RoleGenerated},
	{"vendor/github.com/x/y.go", RoleVendored}, {"vendor/github.com/x/y_test.go", RoleVendored},
	{"kubernetes/typed/core/v1/fake/fake_pod.go", RoleTest}, {"_build/dev/lib/plug/ebin/x.ex", RoleGenerated},
	// A Go folder is a package, yet one under docs, test, testing, e2e or
	// a playground serves that role: the docs' generators (cobra's doc,
	// weaviate's docs generator, go/doc, go doc), the tests' helpers
	// (smithy-go's and logr's testing, grpc's e2e), the playground
	// clients of x/tools and graphql; a query about one names its folder
	// ("documentation generation", "playground"), which asks for the role
	// (AskedRoles). Made source, cobra's doc generator crowded its flag
	// and error questions (docs/QUALITY.md). A _test.go file there is a test.
	{"doc/man_docs.go", RoleDocs}, {"doc/util.go", RoleDocs}, {"doc/man_docs_test.go", RoleTest},
	{"src/go/doc/reader.go", RoleDocs}, {"src/go/doc/example.go", RoleDocs},
	{"src/cmd/go/internal/doc/doc.go", RoleDocs}, {"usecases/auth/authorization/docs/generator.go", RoleDocs},
	{"usecases/auth/authorization/docs/auth_calls.md", RoleDocs}, {"internal/docs/README.src.md", RoleDocs},
	{"playground/playground.go", RoleExample}, {"playground/handler.go", RoleExample},
	{"testing/struct.go", RoleTest}, {"testing/test.go", RoleTest}, {"internal/testutils/xds/e2e/server.go", RoleTest},
	{"examples/tab_logger.go", RoleExample}, {"examples/documentation_examples/examples.go", RoleExample},
	{"windows/svc/example/main.go", RoleExample},
	// Elsewhere too a docs folder's code is the docs' (libuv's guide
	// programs, the Rust books' listings).
	{"docs/code/tcp-echo-server/main.c", RoleDocs},
	{"src/doc/book/listings/ch02-guessing-game-tutorial/listing-02-01/src/main.rs", RoleDocs},
	// Java, Kotlin, Scala (Maven, Gradle, Kotlin Multiplatform, protoc).
	{"src/main/java/com/squareup/javapoet/TypeSpec.java", RoleSource}, {"src/main/java/x/Latest.java", RoleSource},
	{"src/main/java/x/CipherSuite.java", RoleSource}, {"src/commonMain/kotlin/io/kotest/core/spec/style/FunSpec.kt", RoleSource},
	{"core/src/main/scala/cats/data/Validated.scala", RoleSource}, {"src/jvmMain/kotlin/x/Flow.kt", RoleSource},
	{"src/main/java/javax/crypto/spec/KeySpec.java", RoleSource}, {"tests/src/main/scala/cats/tests/Helpers.scala", RoleTest},
	{"src/main/java/x/generated/Parser.java", RoleGenerated},
	{"src/test/java/x/StringUtilsTest.java", RoleTest}, {"src/it/java/x/ServerIT.java", RoleTest},
	{"module/ServerITCase.java", RoleTest}, {"module/TestStrings.java", RoleTest}, {"module/Testimonial.java", RoleSource},
	{"module/GIT.java", RoleSource},
	{"src/integrationTest/kotlin/x/Api.kt", RoleTest}, {"src/testFixtures/java/x/Fakes.java", RoleTest},
	{"core/src/commonTest/kotlin/x/FlowTest.kt", RoleTest}, {"core/jvm/test/x/Channels.kt", RoleTest},
	{"tests/shared/src/test/scala/cats/tests/ValidatedSuite.scala", RoleTest}, {"modules/core/ParserSpec.scala", RoleTest},
	{"src/jmh/java/x/ParserBenchmark.java", RoleBench}, {"gradle.lockfile", RoleGenerated},
	{"build/generated/source/proto/main/java/x/UserOuterClass.java", RoleGenerated},
	{"target/generated-sources/annotations/x/Mapper.java", RoleGenerated},
	// C# and .NET.
	{"src/Newtonsoft.Json/JsonConvert.cs", RoleSource}, {"src/Newtonsoft.Json.Tests/JsonConvertTest.cs", RoleTest},
	{"tests/Foo.UnitTests/BarTests.cs", RoleTest}, {"src/Foo.Tests/Helpers.cs", RoleTest}, {"src/Foo.Specs/Steps.cs", RoleTest},
	{"benchmarks/Foo.Benchmarks/ParserBenchmarks.cs", RoleBench}, {"src/Foo.Benchmarks/Program.cs", RoleBench},
	{"src/Foo/Properties/Resources.Designer.cs", RoleGenerated}, {"src/Foo/Views/Main.g.cs", RoleGenerated},
	{"src/Foo/packages.lock.json", RoleGenerated}, {"samples/WebApp/Program.cs", RoleExample},
	// Swift (SwiftPM, Xcode, CocoaPods).
	{"Sources/Alamofire/Core/Session.swift", RoleSource}, {"Tests/AlamofireTests/SessionTests.swift", RoleTest},
	{"Tests/LinuxMain.swift", RoleTest}, {"MyAppUITests/LoginFlow.swift", RoleTest}, {"Tests/FooSpec.swift", RoleTest},
	{"Example/Source/ViewController.swift", RoleExample}, {"Package.resolved", RoleGenerated},
	{"Pods/Alamofire/Source/Session.swift", RoleVendored}, {"Sources/Proto/user.pb.swift", RoleGenerated},
	{"Sources/App/R.generated.swift", RoleGenerated}, {"Benchmarks/Parse/Parse.swift", RoleBench},
	{"Docs/Intro.playground/Contents.swift", RoleExample},
	// Ruby (RSpec, minitest, Cucumber, Sorbet, RBS).
	{"lib/rack/request.rb", RoleSource}, {"lib/rack/version.rb", RoleSource}, {"spec/models/user_spec.rb", RoleTest},
	{"test/rack/test_request.rb", RoleTest}, {"spec/spec_helper.rb", RoleTest}, {"test/test_helper.rb", RoleTest},
	{"features/step_definitions/web_steps.rb", RoleTest}, {"features/login.feature", RoleTest},
	{"Gemfile.lock", RoleGenerated}, {"sig/rack.rbs", RoleStub}, {"rbi/rack.rbi", RoleStub}, {"History.md", RoleChangelog},
	{"guides/source/routing.md", RoleDocs}, {"lib/protos/user_services_pb.rb", RoleGenerated},
	// PHP (PHPUnit, Pest, Composer).
	{"src/Illuminate/Routing/Router.php", RoleSource}, {"tests/Routing/RoutingRouteTest.php", RoleTest},
	{"src/Foo/RouteTest.php", RoleTest}, {"composer.lock", RoleGenerated}, {"vendor/symfony/console/Application.php", RoleVendored},
	// C and C++ (gtest, Chromium, LLVM, protoc, vendored trees).
	{"src/unix/core.c", RoleSource}, {"CMakeLists.txt", RoleSource}, {"test/test-fs.c", RoleTest},
	{"unittests/ADT/APIntTest.cpp", RoleTest}, {"base/strings/string_util_unittest.cc", RoleTest},
	{"src/proto/user.pb.cc", RoleGenerated}, {"src/proto/user.pb.h", RoleGenerated}, {"src/proto/user.grpc.pb.cc", RoleGenerated},
	{"third_party/zlib/deflate.c", RoleVendored}, {"deps/uv/src/unix/core.c", RoleVendored},
	{"extern/googletest/src/gtest.cc", RoleVendored}, {"benchmarks/bench_parse.cpp", RoleBench}, {"Doxyfile", RoleDocs},
	// Haskell (Cabal, Stack, Hspec, GHC).
	{"src/Data/Aeson.hs", RoleSource}, {"src/Text/Spec.hs", RoleSource}, {"app/Main.hs", RoleSource},
	{"test/Spec.hs", RoleTest}, {"tests/Data/AesonSpec.hs", RoleTest}, {"src/Data/AesonSpec.hs", RoleTest},
	{"testsuite/tests/typecheck/T1.hs", RoleTest}, {"bench/Main.hs", RoleBench}, {"stack.yaml.lock", RoleGenerated},
	{"cabal.project.freeze", RoleGenerated},
	// Dart and Flutter (build_runner, protoc, mockito).
	{"lib/src/router.dart", RoleSource}, {"test/router_test.dart", RoleTest}, {"integration_test/app_test.dart", RoleTest},
	{"lib/models/user.g.dart", RoleGenerated}, {"lib/models/user.freezed.dart", RoleGenerated},
	{"test/router_test.mocks.dart", RoleGenerated}, {"lib/src/generated/user.pbenum.dart", RoleGenerated},
	{"lib/routes/app_router.gr.dart", RoleGenerated}, {"pubspec.lock", RoleGenerated}, {"example/lib/main.dart", RoleExample},
	// Shell (Bats, git's and Perl's t/), Elixir, Erlang, Zig, Lua.
	{"lib/colors.bash", RoleSource}, {"bin/install.sh", RoleSource}, {"test/colors.bats", RoleTest},
	{"tests/run_test.sh", RoleTest}, {"t/t0001-init.sh", RoleTest}, {"test_helper/bats-support/load.bash", RoleTest},
	{"lib/phoenix/router.ex", RoleSource}, {"test/support/conn_case.ex", RoleTest}, {"mix.lock", RoleGenerated},
	{"test/foo_SUITE.erl", RoleTest}, {"src/foo_suite.ex", RoleSource},
	{"src/main.zig", RoleSource}, {"lib/std/testing.zig", RoleSource}, {"build.zig", RoleSource},
	{"test/behavior/basic.zig", RoleTest}, {"zig-out/lib/x.zig", RoleGenerated}, {"lua/lspconfig/configs/lua_ls.lua", RoleSource}, {"spec/util_spec.lua", RoleTest},
	{"types/vim.lua", RoleStub}, {"lua/types/vim.lua", RoleStub},
	// Docs and changelogs anywhere.
	{"README.md", RoleDocs}, {"README", RoleDocs}, {"AUTHORS", RoleDocs}, {"docs/extract.md", RoleDocs},
	{"docs/specification.md", RoleDocs}, {"specification.md", RoleDocs}, {"site/index.html", RoleDocs},
	{"src/site/Page.java", RoleSource}, {"mkdocs.yml", RoleDocs}, {"BENCHMARKS.md", RoleDocs},
	{"newsletter.md", RoleDocs}, {"CHANGELOG.md", RoleChangelog}, {"CHANGES.rst", RoleChangelog}, {"NEWS", RoleChangelog},
	{"CHANGELOG-1.x.md", RoleChangelog}, {"changelog/unreleased/issue-1", RoleChangelog},
	{".changeset/brave-lions-eat.md", RoleChangelog}, {"releasenotes/notes/fix-x.yaml", RoleChangelog},
}

func TestFileRole(t *testing.T) {
	for _, c := range roleCases {
		if got := FileRole(c.path); got != c.want {
			t.Errorf("FileRole(%q) = %s, want %s", c.path, got, c.want)
		}
	}
}

// TestFileRoleNoAllocs: the role of a path is read without allocating.
func TestFileRoleNoAllocs(t *testing.T) {
	if n := testing.AllocsPerRun(10, func() {
		for _, c := range roleCases {
			_ = FileRole(c.path)
		}
	}); n != 0 {
		t.Errorf("FileRole allocates %v times a run", n)
	}
}

func TestAskedRoles(t *testing.T) {
	for _, c := range []struct {
		q    string
		want []Role
	}{
		{"test for the router", []Role{RoleTest}},
		{"benchmark of the JSON parser", []Role{RoleBench, RoleTest}},
		{"mock HTTP client", []Role{RoleTest}},
		{"pytest fixtures for a database", []Role{RoleTest}},
		{"e2e login flow", []Role{RoleTest}},
		{"E2E tests", []Role{RoleTest}},
		{"storybook stories for Button", []Role{RoleExample}},
		{"type stubs for the client", []Role{RoleStub}},
		{"how snapshots are pruned", nil},
		{"end of the e2ee handshake", nil},
		{"how routes are grouped and registered", nil},
		{"documentation generation for man pages and markdown", []Role{RoleDocs}},
		{"how the playground sends a snippet to compile", []Role{RoleExample}},
	} {
		got := AskedRoles(Words(c.q))
		if len(got) != len(c.want) {
			t.Errorf("AskedRoles(%q) = %v, want %v", c.q, got, c.want)
			continue
		}
		for _, r := range c.want {
			if !got[r] {
				t.Errorf("AskedRoles(%q) = %v, want %v", c.q, got, c.want)
			}
		}
	}
}

func TestAsksUsage(t *testing.T) {
	for q, want := range map[string]bool{
		"how to make a flag required": true, "How do I add a version flag?": true, "can my program read flags": true,
		"how to_json serializes a custom type": false, "how routes are grouped and registered": false, "Engine": false,
	} {
		if got := AsksUsage(q); got != want {
			t.Errorf("AsksUsage(%q) = %v, want %v", q, got, want)
		}
	}
}

// TestCodeRerankRoles: in a TypeScript window the source file comes
// before its spec, its bundled copy in dist/ and its benchmark, which a
// benchmark query lifts (with the tests) and the bundle does not.
func TestCodeRerankRoles(t *testing.T) {
	ranking := []Fused{
		{ID: cid("src/router.spec.ts", 0), Score: 1.0},
		{ID: cid("dist/index.js", 0), Score: 0.98},
		{ID: cid("bench/router.bench.ts", 0), Score: 0.97},
		{ID: cid("src/router.ts", 0), Score: 0.8},
	}
	q := func(text string) Query {
		return Query{Text: text, IsCode: func(string) bool { return true }}
	}
	none := func(string) []string { return nil }
	got := CodeRerank(ranking, q("how routes are matched"), none)
	if got[0].ID != cid("src/router.ts", 0) {
		t.Errorf("the source is not first: %v", ids(got))
	}
	got = CodeRerank(ranking, q("benchmark of route matching"), none)
	for _, c := range []struct {
		path   string
		factor float64
	}{{"bench/router.bench.ts", 1}, {"src/router.spec.ts", 1}, {"dist/index.js", roleFactors[RoleGenerated]}} {
		if f := got[at(got, c.path)].Code.RoleFactor; f != c.factor {
			t.Errorf("benchmark query: %s has role factor %v, want %v", c.path, f, c.factor)
		}
	}
	if at(got, "bench/router.bench.ts") > at(got, "src/router.ts") {
		t.Errorf("benchmark query: the benchmark is below the source: %v", ids(got))
	}
}
