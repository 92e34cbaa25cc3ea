package rank

import "testing"

// benchPaths are the kinds of path a code query's window holds: source in
// several layouts, tests, docs, generated and vendored files.
var benchPaths = []string{
	"fastapi/openapi/utils.py", "tests/test_openapi.py", "internal/data/node_test.go",
	"src/main/java/org/apache/commons/lang3/StringUtils.java", "src/test/java/org/apache/commons/lang3/StringUtilsTest.java",
	"docs/en/docs/tutorial/security/first-steps.md", "README.md", "CHANGELOG.md", "api/v1/types.pb.go",
	"vendor/github.com/x/y/z.go", "packages/react-dom/src/client/ReactDOMRoot.js", "src/components/Button.stories.tsx",
	"Sources/Alamofire/Core/Session.swift", "Tests/AlamofireTests/SessionTests.swift", "lib/active_record/base.rb",
	"spec/models/user_spec.rb", "src/Foo.Tests/BarTests.cs", "crates/core/src/lib.rs", "benches/parse.rs",
	"node_modules/lodash/lodash.js",
}

// BenchmarkFileRole: the role of each path of a window, as CodeRerank asks
// it once per distinct path.
func BenchmarkFileRole(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range benchPaths {
			_ = FileRole(p)
		}
	}
}
