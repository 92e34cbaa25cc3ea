package rank

import "testing"

func TestDefKey(t *testing.T) {
	tests := []struct{ name, want string }{
		{"TypeAdapter", "typeadapter"},
		{"type_adapter", "typeadapter"},
		{"typeAdapter", "typeadapter"},
		{"TYPE_ADAPTER", "typeadapter"},
		{"$scope", "scope"},
		{"Phoenix.Router", "phoenixrouter"},
		{"Größe", "größe"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := DefKey(tt.name); got != tt.want {
			t.Errorf("DefKey(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}
