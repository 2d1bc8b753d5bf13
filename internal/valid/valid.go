// Package valid collects validation problems into the one public error type,
// [validation.Error], that every package of the SDK returns from Validate.
package valid

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/payorch/checkout-go/validation"
)

// Problem is the public [validation.Problem].
type Problem = validation.Problem

// Error is the public [validation.Error].
type Error = validation.Error

// ForOp returns err as the error of operation op: a *Error gets Op set (on
// a copy); any other non-nil error is wrapped as "checkout: <op>: <err>".
func ForOp(op string, err error) error {
	if err == nil {
		return nil
	}
	if ve, ok := err.(*Error); ok {
		return ve.WithOp(op)
	}
	return fmt.Errorf("checkout: %s: %w", op, err)
}

// Collector gathers problems while a value is walked. The zero value is ready.
type Collector struct {
	problems []Problem
}

// Add records a problem at path.
func (c *Collector) Add(path, message string) {
	c.problems = append(c.problems, Problem{Path: path, Message: message})
}

// Addf records a problem at path with a message built from parts.
func (c *Collector) Addf(path string, parts ...string) {
	c.Add(path, strings.Join(parts, ""))
}

// Merge adds the problems of err (when it is an *Error) under prefix, and
// any other non-nil error as one problem at prefix.
func (c *Collector) Merge(prefix string, err error) {
	if err == nil {
		return
	}
	if ve, ok := err.(*Error); ok {
		for _, p := range ve.Problems {
			c.Add(Join(prefix, p.Path), p.Message)
		}
		return
	}
	c.Add(prefix, err.Error())
}

// Len is the number of problems so far.
func (c *Collector) Len() int { return len(c.problems) }

// Err returns nil when nothing was recorded, else an *Error holding a copy of
// the problems.
func (c *Collector) Err() error {
	if len(c.problems) == 0 {
		return nil
	}
	return &Error{Problems: append([]Problem(nil), c.problems...)}
}

// Join appends a field path to a prefix: Join("a", "b") is "a.b",
// Join("a", "[0]") is "a[0]", and an empty side yields the other.
func Join(prefix, path string) string {
	switch {
	case prefix == "":
		return path
	case path == "":
		return prefix
	case path[0] == '[':
		return prefix + path
	default:
		return prefix + "." + path
	}
}

// Index returns path[i].
func Index(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}
