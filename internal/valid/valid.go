// Package valid holds the one validation error type shared by every package of
// the SDK, so that a caller can errors.As any Validate error into
// *checkout.ValidationError (an alias of Error) whichever package produced it.
package valid

import (
	"strconv"
	"strings"
)

// Problem is one reason a value cannot be sent. Path is the JSON path of the
// offending field as the service spells it, for example
// "payment_filter.options[1].cardFilters[0].cardBins[2]".
type Problem struct {
	Path    string
	Message string
}

// String returns "path: message".
func (p Problem) String() string {
	if p.Path == "" {
		return p.Message
	}
	return p.Path + ": " + p.Message
}

// Error lists every problem found in a value before anything was sent.
type Error struct {
	Problems []Problem
}

// Error returns one line: the first problem and how many others there are.
func (e *Error) Error() string {
	switch len(e.Problems) {
	case 0:
		return "invalid request"
	case 1:
		return "invalid request: " + e.Problems[0].String()
	default:
		var b strings.Builder
		b.WriteString("invalid request: ")
		for i, p := range e.Problems {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString(p.String())
		}
		return b.String()
	}
}

// Has reports whether one of the problems is at path.
func (e *Error) Has(path string) bool {
	for _, p := range e.Problems {
		if p.Path == path {
			return true
		}
	}
	return false
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
