package deepcopy

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

type leaf struct {
	Codes []string
	Extra map[string]json.RawMessage
	note  []int
}

type tree struct {
	Flag   *bool
	Leaves []leaf
	Ptr    *leaf
	Pair   [2]leaf
	Empty  []string
	None   []string
	Name   string
}

func TestOf(t *testing.T) {
	require.Nil(t, Of[tree](nil))

	yes := true
	v := &tree{
		Flag:   &yes,
		Leaves: []leaf{{Codes: []string{"A"}, Extra: map[string]json.RawMessage{"x": json.RawMessage(`1`)}, note: []int{1}}},
		Ptr:    &leaf{Codes: []string{"B"}},
		Pair:   [2]leaf{{Codes: []string{"C"}}},
		Empty:  []string{},
		Name:   "n",
	}
	c := Of(v)
	require.True(t, reflect.DeepEqual(v, c))
	require.NotNil(t, c.Empty, "an empty slice stays empty, not nil")
	require.Nil(t, c.None, "a nil slice stays nil")

	*c.Flag = false
	c.Leaves[0].Codes[0] = "changed"
	c.Leaves[0].Extra["x"][0] = '2'
	c.Leaves[0].Extra["y"] = nil
	c.Ptr.Codes[0] = "changed"
	c.Pair[0].Codes[0] = "changed"
	require.True(t, *v.Flag)
	require.Equal(t, "A", v.Leaves[0].Codes[0])
	require.Equal(t, map[string]json.RawMessage{"x": json.RawMessage(`1`)}, v.Leaves[0].Extra)
	require.Equal(t, "B", v.Ptr.Codes[0])
	require.Equal(t, "C", v.Pair[0].Codes[0])

	c.Leaves[0].note[0] = 9
	require.Equal(t, 9, v.Leaves[0].note[0], "unexported fields are shallow, as documented")
}
