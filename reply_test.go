package checkout

import (
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
	var nilTS *Timestamp
	require.Error(t, nilTS.UnmarshalJSON([]byte(`"2023-12-30T21:46:57Z"`)))
}
