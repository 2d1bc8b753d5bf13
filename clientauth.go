package checkout

// Reading an order's client auth token, whichever block carries it: the
// service's own (juspay) or a gateway's (hyperpg, …).

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
)

// UnmarshalJSON decodes an order leniently, as every reply is read. Where
// the service's client auth block (juspay) has no token, the token comes
// from the first block (by key) of a gateway that carries one in the same
// shape, such as HyperPG's "hyperpg": {client_auth_token,
// client_auth_token_expiry}. A value that is not an object leaves o
// unchanged.
func (o *Order) UnmarshalJSON(data []byte) error {
	type plain Order
	var p plain
	if ok, err := readObject(data, &p, "order"); !ok {
		return err
	}
	if p.ClientAuthToken == "" && bytes.Contains(data, []byte("client_auth_token")) {
		if a, ok := gatewayClientAuth(data); ok {
			p.ClientAuth = a
		}
	}
	*o = Order(p)
	return nil
}

// gatewayClientAuth returns the client auth block of the first member of
// the object data (by key) that holds a token, and whether there is one.
func gatewayClientAuth(data []byte) (ClientAuth, bool) {
	var members map[string]json.RawMessage
	_ = json.Unmarshal(data, &members) // data is an object: the order was decoded from it
	for _, k := range slices.Sorted(maps.Keys(members)) {
		var a ClientAuth
		if kindOf(members[k]) == "object" && decodeLenient(members[k], &a) == nil && a.ClientAuthToken != "" {
			return a, true
		}
	}
	return ClientAuth{}, false
}
