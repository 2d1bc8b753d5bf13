package checkout

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// EMI details as real order statuses send them: interest and tenure as
// objects, the processing fee with its tax, the monthly payment, the
// principal and the subventions. None reads as a wrong zero.
func TestEMIDetailsObjects(t *testing.T) {
	st := fixture(t, "status_emi_details.json")
	d := st.EMIDetails
	require.Equal(t, EMIInterest{Amount: "1724.87", Rate: "16.00"}, d.Interest, "tax null is no tax")
	require.Equal(t, EMITenure{Duration: 3, Unit: "months"}, d.Tenure)
	require.Equal(t, EMIFee{Fee: "199.00", Tax: "35.82"}, d.AdditionalProcessingFee)
	require.Equal(t, Amount("10574.96"), d.MonthlyPayment)
	require.Equal(t, Amount("30000.00"), d.PrincipalAmount)
	require.Empty(t, d.SubventionAmount)
	require.Len(t, d.SubventionInfo, 1)
	require.JSONEq(t, `{"type":"MERCHANT","amount":"862.43"}`, string(d.SubventionInfo[0]))
	require.Equal(t, "HDFC", d.Bank)
	require.Equal(t, "STANDARD_EMI", d.EMIType)
	require.Equal(t, "BANK", d.ProcessedBy)

	out, err := json.Marshal(d)
	require.NoError(t, err)
	var back EMIDetails
	require.NoError(t, json.Unmarshal(out, &back))
	require.Equal(t, d, back, "the plan encodes as objects and reads back the same")
}

// The interest and the tenure read in every form the service writes them:
// an object, a number, text holding a number; anything else (null,
// "FILTERED", a list) leaves them zero, never an error.
func TestEMIScalarForms(t *testing.T) {
	for _, tt := range []struct {
		body     string
		interest EMIInterest
		tenure   EMITenure
	}{
		{`{"interest":"1724.87","tenure":"9"}`, EMIInterest{Amount: "1724.87"}, EMITenure{Duration: 9}},
		{`{"interest":0,"tenure":12}`, EMIInterest{Amount: "0.00"}, EMITenure{Duration: 12}},
		{`{"interest":{"rate":"13.5"},"tenure":{"duration":"6","unit":"months"}}`, EMIInterest{Rate: "13.50"}, EMITenure{Duration: 6, Unit: "months"}},
		{`{"interest":null,"tenure":null}`, EMIInterest{}, EMITenure{}},
		{`{"interest":"FILTERED","tenure":"FILTERED"}`, EMIInterest{}, EMITenure{}},
		{`{"interest":[1],"tenure":true}`, EMIInterest{}, EMITenure{}},
		{`{"interest":{"amount":{"x":1},"rate":16},"tenure":{"duration":[3],"unit":"months"}}`, EMIInterest{Rate: "16.00"}, EMITenure{Unit: "months"}},
	} {
		var d EMIDetails
		require.NoError(t, json.Unmarshal([]byte(tt.body), &d), tt.body)
		require.Equal(t, tt.interest, d.Interest, tt.body)
		require.Equal(t, tt.tenure, d.Tenure, tt.body)
	}
}
