package analyze

import "testing"

func TestDeclared(t *testing.T) {
	for _, c := range []struct {
		tag, want string
		ok        bool
	}{
		{"de", "de", true}, {"pt-BR", "pt", true}, {"zh_CN", English, true}, {"ja", English, true},
		{" EL ", "el", true}, {"", "", false}, {"english", "", false}, {"x1", "", false},
	} {
		if got, ok := Declared(c.tag); got != c.want || ok != c.ok {
			t.Errorf("Declared(%q) = %q, %v; want %q, %v", c.tag, got, ok, c.want, c.ok)
		}
	}
}

func TestPathLanguage(t *testing.T) {
	for _, c := range []struct {
		path, want string
		ok         bool
	}{
		{"content/es/docs/concepts.md", "es", true},
		{"site/content/pt-br/blog/x.md", "pt", true},
		{"fr/docs/index.md", "", false}, // a top folder: "it/" is more often integration tests
		{"it/README.md", "", false},
		{"docs/de/guide.md", "de", true},
		{"content/ja/docs/x.md", English, true}, // no chain: English's
		{"site/content/zh-CN/x.md", English, true},
		{"docs/ui/x.md", "", false},
		{"src/it/test.md", "", false}, // not a localized tree
		{"es.md", "", false},
		{"content/es.md", "", false},
		{"content/docs/x.md", "", false},
	} {
		if got, ok := PathLanguage(c.path); got != c.want || ok != c.ok {
			t.Errorf("PathLanguage(%q) = %q, %v; want %q, %v", c.path, got, ok, c.want, c.ok)
		}
	}
}
