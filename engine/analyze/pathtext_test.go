package analyze

import "testing"

func TestPathText(t *testing.T) {
	cases := map[string]string{
		"lib/colors.bash":              "lib colors",
		"src/UpdateStatement.kt":       "src UpdateStatement",
		"app/foo.test.ts":              "app foo test",
		"README":                       "README",
		".github/.bashrc":              " github  bashrc",
		"a.b/c":                        "a b c",
		"docs/es/docs/deployment.md":   "docs docs deployment",
		"content/pt-br/guide/intro.md": "content guide intro",
		"i18n/zh_CN/index.md":          "i18n index",
		"ui/windows.lua":               "ui windows",
		"en.md":                        "en",
	}
	for in, want := range cases {
		if got := PathText(in); got != want {
			t.Errorf("PathText(%q) = %q, want %q", in, got, want)
		}
	}
}
