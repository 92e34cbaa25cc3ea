package parse

import "context"

// noticeKey carries a Notice function in a context.
type noticeKey struct{}

// WithNotice returns ctx carrying f, which a parser calls (through Notify)
// to say what a slow one-time step is doing, for a progress line; "" ends
// the notice.
func WithNotice(ctx context.Context, f func(text string)) context.Context {
	if f == nil {
		return ctx
	}
	return context.WithValue(ctx, noticeKey{}, f)
}

// Notify passes text to the Notice function ctx carries, if any.
func Notify(ctx context.Context, text string) {
	if f, ok := ctx.Value(noticeKey{}).(func(string)); ok {
		f(text)
	}
}
