package e2e_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/wiretest"
)

// requireSameWire compares what the SDK encoded with the published JSON,
// key order aside, allowing only the SDK's documented normalisations: a
// number sent as text (or text read as a number) of the same decimal
// value, product_summary compared as the JSON its text holds, and the
// older spellings the service also accepts written in the current one
// (type toggleImage as toggleimage; WALLETS as WALLET; mandate_max_amount
// as mandate.max_amount), and "options": [] added to a payment filter
// published without it (the SDK always sends the key: the service
// requires it).
func requireSameWire(t *testing.T, published, encoded []byte) {
	t.Helper()
	diffs := wireDiff("$", wiretest.NumberTree(t, published), wiretest.NumberTree(t, encoded))
	require.Empty(t, diffs, "encoded:\n%s", encoded)
}

var olderKeys = map[string]string{"mandate_max_amount": "mandate.max_amount"}

var olderValues = map[string]string{"toggleImage": "toggleimage", "WALLETS": "WALLET"}

func wireDiff(path string, want, got any) []string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: want an object, got %v", path, got)}
		}
		var diffs []string
		used := map[string]bool{}
		for k, wv := range w {
			gk := k
			if _, ok := g[k]; !ok {
				if nk, ok := olderKeys[k]; ok {
					gk = nk
				}
			}
			gv, ok := g[gk]
			if !ok {
				diffs = append(diffs, fmt.Sprintf("%s.%s: missing", path, k))
				continue
			}
			used[gk] = true
			if k == "product_summary" {
				ws, wok := wv.(string)
				gs, gok := gv.(string)
				if wok && gok {
					var wt, gt any
					if json.Unmarshal([]byte(ws), &wt) == nil && json.Unmarshal([]byte(gs), &gt) == nil {
						diffs = append(diffs, wireDiff(path+".product_summary", jsonNumbers(wt), jsonNumbers(gt))...)
						continue
					}
				}
			}
			diffs = append(diffs, wireDiff(path+"."+k, wv, gv)...)
		}
		for k, gv := range g {
			if arr, isArr := gv.([]any); k == "options" && isArr && len(arr) == 0 {
				continue
			}
			if !used[k] {
				diffs = append(diffs, fmt.Sprintf("%s.%s: added", path, k))
			}
		}
		return diffs
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return []string{fmt.Sprintf("%s: want %d elements, got %v", path, len(w), got)}
		}
		var diffs []string
		for i := range w {
			diffs = append(diffs, wireDiff(fmt.Sprintf("%s[%d]", path, i), w[i], g[i])...)
		}
		return diffs
	case json.Number, string:
		ws, gs := fmt.Sprint(w), fmt.Sprint(got)
		_, wNum := w.(json.Number)
		_, gNum := got.(json.Number)
		_, gStr := got.(string)
		switch {
		case (wNum || gNum) && (gNum || gStr) && sameDecimal(ws, gs):
			return nil
		case !wNum && gStr && (ws == gs || olderValues[ws] == gs):
			return nil
		}
		return []string{fmt.Sprintf("%s: want %#v, got %#v", path, want, got)}
	default:
		if !reflect.DeepEqual(want, got) {
			return []string{fmt.Sprintf("%s: want %#v, got %#v", path, want, got)}
		}
		return nil
	}
}

// jsonNumbers re-reads a tree decoded with float64 numbers with
// json.Number ones, as tree does.
func jsonNumbers(v any) any {
	b, _ := json.Marshal(v)
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	_ = dec.Decode(&out)
	return out
}

func sameDecimal(a, b string) bool {
	x, ok1 := new(big.Rat).SetString(a)
	y, ok2 := new(big.Rat).SetString(b)
	return ok1 && ok2 && x.Cmp(y) == 0
}
