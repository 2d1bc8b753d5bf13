package checkout

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestTimestampForms reads every form a service time comes in, and leaves
// the zero time for what is not a time, without an error or a panic.
func TestTimestampForms(t *testing.T) {
	want := time.Date(2023, 12, 30, 21, 46, 57, 0, time.UTC)
	for _, tc := range []struct {
		json string
		want time.Time
	}{
		{`"2023-12-30T21:46:57Z"`, want},
		{`"2023-12-30T21:46:57.000Z"`, want},
		{`"2023-12-30T21:46:57+0000"`, want},
		{`"2023-12-30T21:46:57"`, want},
		{` "2023-12-30T21:46:57Z" `, want},
		{`"2023\u002d12-30T21:46:57Z"`, want}, // an escape goes through the decoder
		{`1703972817`, want},
		{`"1703972817"`, want},
		{`0`, time.Time{}},
		{`-5`, time.Time{}},
		{`"FILTERED"`, time.Time{}},
		{`""`, time.Time{}},
		{`{"a":1}`, time.Time{}},
		{`true`, time.Time{}},
	} {
		ts := Timestamp{time.Unix(1, 0)}
		require.NoError(t, ts.UnmarshalJSON([]byte(tc.json)), tc.json)
		require.True(t, tc.want.Equal(ts.Time), "%s: got %v", tc.json, ts.Time)
	}

	ts := Timestamp{want}
	require.NoError(t, ts.UnmarshalJSON([]byte(`null`)))
	require.True(t, want.Equal(ts.Time), "null leaves the time as it was")

	for _, bad := range []string{`"`, `"2023`, `"a\`} {
		require.Error(t, new(Timestamp).UnmarshalJSON([]byte(bad)), "%s is not JSON", bad)
	}
}

// A value that fits no field is left out and kept in Raw, never an error
// that loses the whole reply: a breakup whose text is garbled, a token
// block the service redacts.
func TestGarbledOrRedactedBlocksLeftOut(t *testing.T) {
	body := `{"order_id":"o","status":"CHARGED","amount":"10.00",` +
		`"txn_detail":{"txn_id":"t1","txn_amount_breakup":"[{\"name\":\"BASE\",\"amount\":10"},` +
		`"card":{"card_brand":"VISA","using_token":true,"token":"FILTERED"}}`
	st, err := decodeReply[OrderStatus]([]byte(body))
	require.NoError(t, err)
	require.NotNil(t, st.TxnDetail)
	require.Equal(t, "t1", st.TxnDetail.TxnID)
	require.Empty(t, st.TxnDetail.AmountBreakup)
	require.Contains(t, string(st.Raw), `txn_amount_breakup`)
	require.NotNil(t, st.Card)
	require.Equal(t, "VISA", st.Card.Brand)
	require.Nil(t, st.Card.Token, "a redacted token block is nil, as every redacted block is")
	require.NoError(t, st.CheckPaid("10.00"))

	var card CardDetail
	require.NoError(t, json.Unmarshal([]byte(`{"token":{"provider":"VISA"}}`), &card))
	require.Equal(t, "VISA", card.Token.Provider)
}

// Unix seconds read as a time only up to the year 9999, the last a
// Timestamp can be written back: milliseconds are no time of the service's.
func TestTimestampEncodableRange(t *testing.T) {
	var ts Timestamp
	require.NoError(t, ts.UnmarshalJSON([]byte(`253402300799`)))
	require.EqualValues(t, 9999, ts.Year())
	_, err := json.Marshal(ts)
	require.NoError(t, err)
	require.NoError(t, ts.UnmarshalJSON([]byte(`"1000000000000"`)))
	require.True(t, ts.IsZero(), "a time in milliseconds: %v", ts.Time)
}
