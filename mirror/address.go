package mirror

import (
	"slices"

	"github.com/autorag/autorag/mirror/parse/email"
)

// AddressForms lists the other values an address field (from, to, cc,
// reply_to) matches a filter by: each address and display name of value,
// lowercased. Other fields have none.
func AddressForms(key, value string) []string {
	if !slices.Contains(email.AddressKeys, key) {
		return nil
	}
	return email.AddressForms(value)
}
