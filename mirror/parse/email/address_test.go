package email

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAddressForms(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{`"Vladimir L." <Vladimir_L@Example.com>`, []string{"vladimir l.", "vladimir_l@example.com"}},
		{`grace@example.com, Ada Lovelace <ada@example.com>`, []string{"ada lovelace", "ada@example.com", "grace@example.com"}},
		{`Undisclosed recipients:;`, nil},
		{`not an address`, nil},
	} {
		if d := cmp.Diff(tt.want, AddressForms(tt.in)); d != "" {
			t.Errorf("AddressForms(%q) (-want +got):\n%s", tt.in, d)
		}
	}
}
