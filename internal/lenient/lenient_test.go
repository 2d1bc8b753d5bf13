package lenient

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// strictAmount fails on anything but a JSON number, as a field type with
// its own UnmarshalJSON may.
type strictAmount string

func (a *strictAmount) UnmarshalJSON(b []byte) error {
	if !IsNumber(string(b)) {
		return errors.New("not a number")
	}
	*a = strictAmount(b)
	return nil
}

type link struct {
	Web    string    `json:"web"`
	Expiry time.Time `json:"expiry"`
}

type base struct {
	ID string `json:"id"`
}

type item struct {
	Name   string       `json:"name"`
	Amount strictAmount `json:"amount"`
}

type target struct {
	base
	OrderID  string            `json:"order_id"`
	StatusID int               `json:"status_id"`
	Small    int8              `json:"small"`
	Count    uint              `json:"count"`
	Rate     float64           `json:"rate"`
	Paid     bool              `json:"paid"`
	Links    link              `json:"links"`
	Optional *link             `json:"optional"`
	Items    []item            `json:"items"`
	Codes    []string          `json:"codes"`
	Meta     map[string]int    `json:"meta"`
	Payload  json.RawMessage   `json:"payload"`
	Any      any               `json:"any"`
	Amount   strictAmount      `json:"amount"`
	Tags     map[string]string `json:"tags"`
	Quoted   int               `json:"quoted,string"`
	Data     []byte            `json:"data"`
	Skip     string            `json:"-"`
}

func TestUnmarshal(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want target
	}{
		{"valid input is plain encoding/json", `{"id":"a","order_id":"o","status_id":21,"paid":true}`,
			target{base: base{ID: "a"}, OrderID: "o", StatusID: 21, Paid: true}},
		{"numbers as strings", `{"status_id":"21","rate":" 1.5 ","count":"7","small":"-8"}`,
			target{StatusID: 21, Rate: 1.5, Count: 7, Small: -8}},
		{"numbers and booleans as text", `{"order_id":12345,"id":true,"status_id":21}`,
			target{base: base{ID: "true"}, OrderID: "12345", StatusID: 21}},
		{"booleans as text or numbers", `{"paid":"TRUE","status_id":"x"}`, target{Paid: true}},
		{"boolean from 1", `{"paid":1,"status_id":"x"}`, target{Paid: true}},
		{"boolean from \"0\"", `{"paid":"0","status_id":"x"}`, target{}},
		{"integral numbers fill integers", `{"status_id":21.0,"count":2e1,"small":"1E2"}`,
			target{StatusID: 21, Count: 20, Small: 100}},
		{"out of range or fractional numbers are left zero", `{"status_id":1.5,"small":300,"count":-1,"rate":1e400,"order_id":"o"}`,
			target{OrderID: "o"}},
		{"FILTERED is left zero", `{"status_id":"FILTERED","paid":"FILTERED","links":"FILTERED","items":"FILTERED","order_id":"o"}`,
			target{OrderID: "o"}},
		{"objects where text is expected are left zero", `{"order_id":{"a":1},"codes":["a",{"b":1},2,null],"status_id":"3"}`,
			target{StatusID: 3, Codes: []string{"a", "2", ""}}},
		{"array elements that do not fit are left out", `{"items":["FILTERED",{"name":"x","amount":"1.5"},{"name":"y","amount":2},7],"status_id":"1"}`,
			target{StatusID: 1, Items: []item{{Name: "x"}, {Name: "y", Amount: "2"}}}},
		{"a time that does not parse is left zero", `{"links":{"web":5,"expiry":"yesterday"},"optional":{"expiry":"2024-01-02T03:04:05Z"}}`,
			target{Links: link{Web: "5"}, Optional: &link{Expiry: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}}},
		{"custom decoders get a number as a string when only that fits", `{"amount":"FILTERED","status_id":"2"}`,
			target{StatusID: 2}},
		{"maps", `{"meta":{"a":"1","b":"x","c":2},"tags":{"k":1},"status_id":"2"}`,
			target{StatusID: 2, Meta: map[string]int{"a": 1, "c": 2}, Tags: map[string]string{"k": "1"}}},
		{"raw messages and interfaces are kept as sent", `{"payload": { "a" : [1, 2] } ,"any":{"x":[1]},"status_id":"2"}`,
			target{StatusID: 2, Payload: json.RawMessage(`{ "a" : [1, 2] }`), Any: map[string]any{"x": []any{1.0}}}},
		{"null stays null", `{"optional":null,"items":null,"order_id":null,"status_id":"2"}`, target{StatusID: 2}},
		{"unknown keys and keys in another case", `{"unknown":{"deep":[1]},"ORDER_ID":7,"status_id":"2"}`,
			target{OrderID: "7", StatusID: 2}},
		{"the string option keeps its quotes", `{"quoted":"5","status_id":"2"}`, target{Quoted: 5, StatusID: 2}},
		{"the string option gets them", `{"quoted":5,"status_id":"2"}`, target{Quoted: 5, StatusID: 2}},
		{"the string option holding FILTERED", `{"quoted":"FILTERED","status_id":"2"}`, target{StatusID: 2}},
		{"bytes are base64", `{"data":"aGk=","status_id":"2"}`, target{Data: []byte("hi"), StatusID: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got target
			require.NoError(t, Unmarshal([]byte(tt.in), &got))
			require.Equal(t, tt.want, got)
		})
	}
}

func TestUnmarshalErrors(t *testing.T) {
	var v target
	var syntax *json.SyntaxError
	require.ErrorAs(t, Unmarshal([]byte(`{"order_id":`), &v), &syntax)
	var te *json.UnmarshalTypeError
	require.ErrorAs(t, Unmarshal([]byte(`[1,2]`), &v), &te, "the value as a whole must fit")
	require.ErrorAs(t, Unmarshal([]byte(`"FILTERED"`), &v), &te)
	require.Error(t, Unmarshal([]byte(`{}`), v), "not a pointer")
	require.Error(t, Unmarshal([]byte(`{}`), (*target)(nil)))

	var items []item
	require.NoError(t, Unmarshal([]byte(`[{"amount":"x"},{"amount":1}]`), &items))
	require.Equal(t, []item{{}, {Amount: "1"}}, items, "a field that does not fit is left zero")
}

// The slow path starts from the zero value, not from what the failed first
// attempt left behind.
func TestUnmarshalResets(t *testing.T) {
	v := target{OrderID: "old", Codes: []string{"x"}}
	require.NoError(t, Unmarshal([]byte(`{"status_id":"5"}`), &v))
	require.Equal(t, target{StatusID: 5}, v)
}

// Whatever encoding/json decodes, Unmarshal decodes to the same value; and
// no syntactically valid JSON object makes it fail.
func FuzzUnmarshal(f *testing.F) {
	for _, s := range []string{
		`{"id":"a","order_id":"o","status_id":21,"paid":true,"items":[{"name":"n","amount":1}]}`,
		`{"status_id":"21","links":"FILTERED","items":["x",{"amount":"FILTERED"}],"meta":{"a":"1"}}`,
		`{"payload":{"a" : 1},"any":[1,"2",null],"optional":{"web":"w","expiry":"2024-01-02T03:04:05Z"}}`,
		`{"rate":"1e400","small":"-129","count":"-1","data":"!!","quoted":5,"Order_Id":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want, got target
		stdErr := json.Unmarshal(data, &want)
		err := Unmarshal(data, &got)
		if stdErr == nil {
			if err != nil {
				t.Fatalf("encoding/json accepts %s, Unmarshal fails: %v", data, err)
			}
			if !reflect.DeepEqual(want, got) {
				t.Fatalf("differs from encoding/json on %s:\n%#v\n%#v", data, want, got)
			}
			return
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(data, &obj) == nil && err != nil {
			t.Fatalf("a JSON object fails: %s: %v", data, err)
		}
	})
}

// A field tagged lenient:"text" takes only a JSON string: a number or a
// boolean is left out rather than read as its text, so the type's own
// fallback for an absent value applies.
func TestTextOnlyField(t *testing.T) {
	type msg struct {
		Message string `json:"message" lenient:"text"`
		Code    string `json:"code"`
	}
	for body, want := range map[string]msg{
		`{"message":"m","code":"c"}`:     {Message: "m", Code: "c"},
		`{"message":7,"code":8}`:         {Code: "8"},
		`{"message":false,"code":true}`:  {Code: "true"},
		`{"message":{"a":1},"code":"c"}`: {Code: "c"},
		`{"message":null,"code":1}`:      {Code: "1"},
	} {
		var got msg
		require.NoError(t, Unmarshal([]byte(body), &got), body)
		require.Equal(t, want, got, body)
	}
}
