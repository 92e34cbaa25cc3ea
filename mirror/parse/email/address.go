package email

import (
	"net/mail"
	"slices"
	"strings"
)

// AddressKeys are the fields that hold addresses.
var AddressKeys = []string{"from", "to", "cc", "reply_to"}

// AddressForms lists what a filter on an address field may name in value
// (`"Vladimir L." <vladimir_l@example.com>, grace@example.com`): each
// address and each display name, lowercased, without repeats. A value that
// is not an address list yields nil.
func AddressForms(value string) []string {
	list, err := mail.ParseAddressList(value)
	if err != nil {
		return nil
	}
	var out []string
	for _, a := range list {
		for _, f := range []string{a.Address, a.Name} {
			if f = strings.ToLower(strings.Join(strings.Fields(f), " ")); f != "" {
				out = append(out, f)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
