package wire

import (
	"encoding/json"
	"maps"
	"slices"
)

// CloneExtra returns a deep copy of an Extra map (nil for nil), so that a
// Clone or a builder shares no bytes with the value it copied.
func CloneExtra(m map[string]json.RawMessage) map[string]json.RawMessage {
	if m == nil {
		return nil
	}
	c := maps.Clone(m)
	for k, v := range c {
		c[k] = slices.Clone(v)
	}
	return c
}
