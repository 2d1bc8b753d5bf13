package wire_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/wire"
)

func TestCloneExtra(t *testing.T) {
	require.Nil(t, wire.CloneExtra(nil))
	require.NotNil(t, wire.CloneExtra(map[string]json.RawMessage{}), "empty stays empty, not nil")

	m := map[string]json.RawMessage{"a": json.RawMessage(`[1]`)}
	c := wire.CloneExtra(m)
	require.Equal(t, m, c)
	c["a"][1] = '2'
	c["b"] = json.RawMessage(`true`)
	require.Equal(t, map[string]json.RawMessage{"a": json.RawMessage(`[1]`)}, m, "the original shares no map and no bytes")
}
