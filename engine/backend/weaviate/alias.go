package weaviate

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
)

// CreateAlias makes alias name the collection. It returns once every member
// has taken in the change (see settle) and a query of the alias counts what
// the collection holds: a node rebuilds its GraphQL schema when it applies
// the change, and until then a search of the alias fails with "Cannot query
// field", or answers empty (both seen in CI right after a first refresh).
// The count also covers the moment settle cannot see, a change being
// applied as the statistics are read: a first alias has no old state to
// fall back on.
func (c *Client) CreateAlias(ctx context.Context, alias, collection string) error {
	body := map[string]string{"alias": alias, "class": collection}
	if err := c.do(ctx, "create alias "+alias, http.MethodPost, "/v1/aliases", body, nil); err != nil {
		return err
	}
	if err := c.settle(ctx, nil); err != nil {
		return err
	}
	return c.poll(ctx, shardsReadyTimeout, func() error {
		want, err := c.Count(ctx, collection)
		if err != nil {
			return err
		}
		got, err := c.Count(ctx, alias)
		if err == nil && got != want {
			err = fmt.Errorf("alias %s counts %d of %d objects", alias, got, want)
		}
		return err
	})
}

// SwapAlias points an existing alias at another collection in one
// replicated schema change: the commit point of an update. It returns when
// the leader has applied it; followers may still resolve the alias to the
// old collection for a while (see settle).
func (c *Client) SwapAlias(ctx context.Context, alias, collection string) error {
	body := map[string]string{"class": collection}
	return c.do(ctx, "swap alias "+alias, http.MethodPut, "/v1/aliases/"+url.PathEscape(alias), body, nil)
}

// SetAlias points alias at collection, creating the alias when missing.
func (c *Client) SetAlias(ctx context.Context, alias, collection string) error {
	err := c.SwapAlias(ctx, alias, collection)
	if isNotFound(err) {
		return c.CreateAlias(ctx, alias, collection)
	}
	return err
}

// ResolveAlias returns the collection an alias names, or an error wrapping
// ErrNotFound.
func (c *Client) ResolveAlias(ctx context.Context, alias string) (string, error) {
	var out struct {
		Class string `json:"class"`
	}
	if err := c.do(ctx, "resolve alias "+alias, http.MethodGet, "/v1/aliases/"+url.PathEscape(alias), nil, &out); err != nil {
		return "", err
	}
	if out.Class == "" {
		return "", &apiError{op: "resolve alias " + alias, kind: ErrNotFound, msg: "no such alias"}
	}
	return out.Class, nil
}

// Aliases returns every alias and the collection it names.
func (c *Client) Aliases(ctx context.Context) (map[string]string, error) {
	var out struct {
		Aliases []struct {
			Alias string `json:"alias"`
			Class string `json:"class"`
		} `json:"aliases"`
	}
	if err := c.do(ctx, "list aliases", http.MethodGet, "/v1/aliases", nil, &out); err != nil {
		return nil, err
	}
	m := make(map[string]string, len(out.Aliases))
	for _, a := range out.Aliases {
		m[a.Alias] = a.Class
	}
	return m, nil
}

// DeleteAlias removes an alias; a missing one is not an error.
func (c *Client) DeleteAlias(ctx context.Context, alias string) error {
	err := c.do(ctx, "delete alias "+alias, http.MethodDelete, "/v1/aliases/"+url.PathEscape(alias), nil, nil)
	if isNotFound(err) {
		return nil
	}
	return err
}

func isNotFound(err error) bool { return errors.Is(err, ErrNotFound) }
