package tags

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

type Group struct {
	Max  string `json:"group.max,omitempty" url:"group_max"`
	Note string `json:"-"`
}

type hidden struct {
	Deep string `json:"deep"`
}

type request struct {
	ID     string `json:"id,omitempty" url:"id"`
	Plain  string
	*Group `url:"-"`
	hidden
	Skip  string `json:"-" url:"-"`
	Rival string `json:"deep"` // shallower than hidden.Deep: wins
}

type tie struct {
	A
	B
}

type A struct{ X string }
type B struct{ X string }

type tagged struct {
	A
	C
}

type C struct {
	Y string `json:"X"`
}

func keys(fs []Field) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Key)
	}
	return out
}

func TestFields(t *testing.T) {
	fs := Fields(reflect.TypeFor[*request](), "json")
	require.Equal(t, []string{"id", "Plain", "group.max", "deep"}, keys(fs))
	require.Equal(t, Field{Name: "Max", Key: "group.max", Index: []int{2, 0}, Type: reflect.TypeFor[string](),
		Options: "omitempty", Tag: `json:"group.max,omitempty" url:"group_max"`, tagged: true}, fs[2])
	require.True(t, fs[2].Has("omitempty"))
	require.False(t, fs[2].Has("omit"), "an option is matched whole")
	require.False(t, fs[0].Has("string"))
	require.Equal(t, "group_max", fs[2].Tag.Get("url"), "the whole tag, for the caller's other keys")
	require.Equal(t, []int{5}, fs[3].Index, "the shallower field wins")

	require.Equal(t, []string{"id", "Plain", "Deep", "Rival"}, keys(Fields(reflect.TypeFor[request](), "url")))
	require.Empty(t, Fields(reflect.TypeFor[tie](), "json"), "a tie hides both")
	require.Equal(t, []string{"X"}, keys(Fields(reflect.TypeFor[tagged](), "json")))
	require.Equal(t, []int{1, 0}, Fields(reflect.TypeFor[tagged](), "json")[0].Index, "the tagged one wins")
	require.Nil(t, Fields(reflect.TypeFor[string](), "json"))
	require.Nil(t, Fields(nil, "json"))
}

func TestKeys(t *testing.T) {
	typ := reflect.TypeFor[request]()
	require.Equal(t, map[string]bool{"id": true, "Plain": true, "group.max": true, "deep": true}, Keys(typ, "json"))
}
