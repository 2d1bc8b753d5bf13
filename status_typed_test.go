package checkout

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/conformance"
)

// untypedKeys are the keys of the published bodies no field types: their
// shape is never shown unredacted or differs between gateways. Raw keeps
// them.
var untypedKeys = map[string]bool{
	"OrderStatus.bank_pg":         true, // always null
	"OrderStatus.rewards_breakup": true, // null or FILTERED
	"OrderStatus.emi_details":     true, // FILTERED
	"OrderStatus.additional_info": true, // {}
	"Refund.previous_attempts":    true, // FILTERED
}

var (
	timestampType     = reflect.TypeFor[Timestamp]()
	amountBreakupType = reflect.TypeFor[AmountBreakup]()
	amountType        = reflect.TypeFor[Amount]()
)

// requireTyped walks a generic decoding of a published body beside its
// typed value: every key has a field (or is listed in untypedKeys), every
// object and array of the body is typed as one, and every value that is
// set and not redacted is set in its field too, equal where it is text.
func requireTyped(t *testing.T, where string, v reflect.Value, raw any) {
	t.Helper()
	if raw == nil {
		return
	}
	if s, ok := raw.(string); ok && (s == "" || s == "FILTERED") {
		return
	}
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			t.Errorf("%s: %v was not decoded", where, raw)
			return
		}
		v = v.Elem()
	}
	if v.Type() == reflect.TypeFor[json.RawMessage]() || v.Type() == reflect.TypeFor[RawJSON]() {
		want, err := json.Marshal(raw)
		require.NoError(t, err)
		require.JSONEq(t, string(want), string(v.Bytes()), where)
		return
	}
	switch x := raw.(type) {
	case map[string]any:
		if v.Kind() == reflect.Map {
			for k, val := range x {
				if s, ok := val.(string); ok {
					require.Equal(t, s, v.MapIndex(reflect.ValueOf(k)).String(), "%s.%s", where, k)
				}
			}
			return
		}
		require.Equal(t, reflect.Struct, v.Kind(), where)
		fields := jsonFields(v.Type())
		for k, val := range x {
			index, ok := fields[k]
			if !ok {
				if !untypedKeys[v.Type().Name()+"."+k] && !isUDFOrAlias(v.Type(), k) {
					t.Errorf("%s.%s: no field of %s types it", where, k, v.Type().Name())
				}
				continue
			}
			requireTyped(t, where+"."+k, v.FieldByIndex(index), val)
		}
	case []any:
		require.Equal(t, reflect.Slice, v.Kind(), where)
		require.Equal(t, len(x), v.Len(), where)
		for i := range x {
			requireTyped(t, where+"["+strconv.Itoa(i)+"]", v.Index(i), x[i])
		}
	case string:
		switch {
		case v.Type() == timestampType:
			if want, err := time.Parse(time.RFC3339, x); err == nil {
				require.True(t, want.Equal(v.Interface().(Timestamp).Time), "%s: %s", where, x)
			}
		case v.Type() == amountBreakupType:
			var lines []any
			require.NoError(t, json.Unmarshal([]byte(x), &lines), where)
			requireTyped(t, where, v, lines)
		case v.Type() == amountType:
			decimalEqual(t, json.Number(x), v.Interface().(Amount))
		case v.Kind() == reflect.String:
			require.Equal(t, x, v.String(), where)
		default:
			require.False(t, v.IsZero(), "%s: %q", where, x)
		}
	case json.Number:
		if v.Type() == amountType {
			decimalEqual(t, x, v.Interface().(Amount))
		} else if x != "0" {
			require.False(t, v.IsZero(), "%s: %s", where, x)
		}
	case bool:
		require.Equal(t, x, v.Bool(), where)
	}
}

// isUDFOrAlias reports the keys read by hand beside the tags: the older
// arn of a refund and value of a breakup line.
func isUDFOrAlias(t reflect.Type, key string) bool {
	return t.Name() == "Refund" && key == "arn" || t.Name() == "BreakupLine" && key == "value"
}

// genericJSON decodes a body with numbers kept as text.
func genericJSON(t *testing.T, data []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	var m map[string]any
	require.NoError(t, dec.Decode(&m))
	return m
}

// Every published order status, refund-order reply and order inside a
// webhook decodes into OrderStatus with every key typed (or listed as
// untyped) and every value in its field.
func TestOrderStatusSamplesFullyTyped(t *testing.T) {
	var bodies []conformance.Sample
	bodies = append(bodies, conformance.Files(t, "orders", "order_status_*.json")...)
	bodies = append(bodies, conformance.Files(t, "orders", "order_update_response.json")...)
	bodies = append(bodies, conformance.Files(t, "refunds", "refund_order_response.json")...)
	orders := 0
	for _, s := range bodies {
		if !s.ValidJSON() || isSealed(s.Data) {
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			st, err := decodeReply[OrderStatus](s.Data)
			require.NoError(t, err)
			requireTyped(t, "order", reflect.ValueOf(st).Elem(), genericJSON(t, s.Data))
			orders++
		})
	}
	for _, s := range conformance.Files(t, "webhooks", "*") {
		if !s.ValidJSON() {
			continue
		}
		m := genericJSON(t, s.Data)
		content, _ := m["content"].(map[string]any)
		for kind, target := range map[string]any{"order": &OrderStatus{}, "txn": &Transaction{}, "mandate": &MandateDetail{}} {
			raw, ok := content[kind]
			if !ok {
				continue
			}
			t.Run(s.Name+"/"+kind, func(t *testing.T) {
				b, err := json.Marshal(raw)
				require.NoError(t, err)
				require.NoError(t, json.Unmarshal(b, target))
				requireTyped(t, kind, reflect.ValueOf(target).Elem(), raw)
				if kind == "order" {
					orders++
				}
			})
		}
	}
	require.GreaterOrEqual(t, orders, 15)
}

// jsonFields returns the index of each field of struct type t under its
// json key, embedded structs' fields promoted, as encoding/json reads them.
func jsonFields(t reflect.Type) map[string][]int {
	out := map[string][]int{}
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() || f.Anonymous {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, dup := out[name]; !dup || len(f.Index) == 1 {
			out[name] = f.Index
		}
	}
	return out
}
