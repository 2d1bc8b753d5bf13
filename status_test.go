package checkout

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Every documented status has its status_id (DESIGN §3); the
// service-declined status is recognised under any namespace.
func TestStatusIDs(t *testing.T) {
	for _, tt := range []struct {
		s     Status
		id    int
		final bool
	}{
		{StatusCreated, 1, false},
		{StatusNew, 10, false},
		{StatusStarted, 20, false},
		{StatusCharged, 21, true},
		{StatusServiceDeclined, 22, true},
		{"JUSPAY_DECLINED", 22, true},
		{"ACME_PAY2_DECLINED", 22, true},
		{StatusPendingVBV, 23, false},
		{StatusVBVSuccessful, 24, false},
		{StatusAuthorized, 25, false},
		{StatusAuthenticationFailed, 26, true},
		{StatusAuthorizationFailed, 27, true},
		{StatusAuthorizing, 28, false},
		{StatusCODInitiated, 29, false},
		{StatusVoided, 31, true},
		{StatusVoidInitiated, 32, false},
		{StatusCaptureInitiated, 33, false},
		{StatusCaptureFailed, 34, true},
		{StatusVoidFailed, 35, true},
		{StatusAutoRefunded, 36, true},
		{StatusNotFound, 40, false},
		{StatusPartialCharged, 37, false},
		{StatusToBeCharged, 38, false},
	} {
		t.Run(string(tt.s), func(t *testing.T) {
			require.Equal(t, tt.id, tt.s.ID())
			require.True(t, tt.s.Known())
			require.Equal(t, tt.final, tt.s.IsFinal())
			require.Equal(t, tt.id == 22, tt.s.IsServiceDeclined())
			require.Equal(t, string(tt.s), tt.s.String())
		})
	}
	for _, s := range []Status{"", "_DECLINED", "juspay_DECLINED", "JUSPAY-DECLINED", "DECLINED", "charged", "REFUNDED_LATER"} {
		require.Zero(t, s.ID(), "%q", s)
		require.False(t, s.Known(), "%q", s)
		require.False(t, s.IsFinal(), "%q", s)
		require.False(t, s.IsServiceDeclined(), "%q", s)
	}
}

func TestOrderStatusIsPaidIsFinal(t *testing.T) {
	for _, tt := range []struct {
		st          OrderStatus
		paid, final bool
	}{
		{OrderStatus{Status: StatusCharged, StatusID: 21}, true, true},
		{OrderStatus{Status: StatusAuthorized, StatusID: 25}, false, false},
		{OrderStatus{Status: StatusCODInitiated, StatusID: 29}, false, false},
		{OrderStatus{Status: StatusPendingVBV, StatusID: 23}, false, false},
		{OrderStatus{Status: StatusAutoRefunded, StatusID: 36}, false, true},
		{OrderStatus{Status: "JUSPAY_DECLINED", StatusID: 22}, false, true},
		{OrderStatus{Status: "Declined by us", StatusID: 22}, false, true}, // classified by status_id
		{OrderStatus{Status: "SOMETHING_NEW", StatusID: 99}, false, false},
		{OrderStatus{StatusID: 21}, false, false}, // the status itself says paid, nothing else
	} {
		require.Equal(t, tt.paid, tt.st.IsPaid(), "%+v", tt.st)
		require.Equal(t, tt.final, tt.st.IsFinal(), "%+v", tt.st)
	}
	var nilStatus *OrderStatus
	require.False(t, nilStatus.IsPaid())
	require.False(t, nilStatus.IsFinal())
}

// CheckPaid compares amounts as decimals: the text the service sends and
// the text the merchant expects need not be spelt alike.
func TestCheckPaid(t *testing.T) {
	charged := func(amount Amount) *OrderStatus {
		return &OrderStatus{OrderID: "o1", Status: StatusCharged, Amount: amount}
	}
	for _, tt := range []struct {
		name     string
		st       *OrderStatus
		expected Amount
		notPaid  bool   // matches ErrNotPaid
		msg      string // in the error; "" for no error
	}{
		{"same text", charged("1499.00"), "1499.00", false, ""},
		{"1 equals 1.00", charged("1"), "1.00", false, ""},
		{"1.0 equals 1", charged("1.00"), "1", false, ""},
		{"trailing zeros", charged("10.50"), "10.5000", false, ""},
		{"exponent", charged("1000.00"), "1e3", false, ""},
		{"one paisa short", charged("1498.99"), "1499.00", true, `order "o1" amount is 1498.99, expected 1499.00`},
		{"more than expected", charged("1500"), "1499.99", true, "expected 1499.99"},
		{"not charged", &OrderStatus{OrderID: "o1", Status: StatusPendingVBV, Amount: "1.00"}, "1.00", true, `order "o1" is PENDING_VBV, not CHARGED`},
		{"authorized only", &OrderStatus{OrderID: "o1", Status: StatusAuthorized, Amount: "1.00"}, "1.00", true, "AUTHORIZED"},
		{"no status", &OrderStatus{OrderID: "o1", Amount: "1.00"}, "1.00", true, "without status"},
		{"no amount", charged(""), "1.00", true, "no readable amount"},
		{"unreadable amount", charged("FILTERED"), "1.00", true, "no readable amount"},
		{"bad expectation", charged("1.00"), "one rupee", true, `expected amount "one rupee" is not a decimal`},
		{"empty expectation", charged("1.00"), "", true, `expected amount "" is not a decimal`},
		{"huge exponent", charged("1.00"), "1e999999999", true, "is not a decimal"},
		{"nil", nil, "1.00", true, "no order status"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.st.CheckPaid(tt.expected)
			if tt.msg == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			require.Equal(t, tt.notPaid, errors.Is(err, ErrNotPaid), "%v", err)
			require.Contains(t, err.Error(), tt.msg)
			require.True(t, strings.HasPrefix(err.Error(), "checkout: check paid: "), err.Error())
		})
	}
}

// fixture decodes testdata/name as GetOrder decodes a reply.
func fixture(t *testing.T, name string) *OrderStatus {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	st, err := decodeReply[OrderStatus](data)
	require.NoError(t, err)
	require.Equal(t, string(data), string(st.Raw))
	return st
}

// Numbers and booleans the service sends as text read as values, at every
// level of the order; IsFinal holds for a status_id sent as text.
func TestStatusTextNumbers(t *testing.T) {
	st := fixture(t, "status_text_numbers.json")
	require.EqualValues(t, 26, st.StatusID)
	require.EqualValues(t, 27, st.GatewayID)
	require.EqualValues(t, 6, st.EMITenure)
	require.False(t, bool(st.Refunded))
	require.Equal(t, Amount("0.00"), st.AmountRefunded)
	require.True(t, st.IsFinal())
	st.Status = "BRANDX_DECLINED_SOMEHOW"
	st.StatusID = 22
	require.True(t, st.IsFinal(), "an unknown name with the refusal's status_id sent as text")
	x := st.TxnDetail
	require.EqualValues(t, 26, x.StatusID)
	require.EqualValues(t, 27, x.GatewayID)
	require.False(t, bool(x.ExpressCheckout))
	require.True(t, bool(x.Redirect))
	require.Equal(t, TextMap{"payment_channel": "WEB", "attempt": "2"}, x.Metadata)
	c := st.Card
	require.True(t, bool(c.UsingSavedCard))
	require.False(t, bool(c.SavedToLocker))
	require.True(t, bool(c.UsingToken))
	require.True(t, bool(c.TokenizationUserConsent))
	require.True(t, c.TokenCreated.Created)
	m := st.Mandate
	require.True(t, bool(m.BlockFund))
	require.False(t, bool(m.RevokableByCustomer))
	require.EqualValues(t, 30, m.RuleValue)
	require.EqualValues(t, "mtk_live_9f8e7d", m.MandateToken)
	require.True(t, bool(st.Risk.Flagged))
	require.True(t, bool(st.Refunds[0].SentToGateway))
	require.Equal(t, Amount("100.00"), st.Refunds[0].Amount)
}

// A value of neither form leaves the zero value and no error: never a
// wrong zero for a text number, never a lost reply.
func TestStatusScalarsNeitherForm(t *testing.T) {
	var v struct {
		N, M, K Int
		B, C    Bool
		T       TextMap
	}
	require.NoError(t, json.Unmarshal([]byte(`{"N":"FILTERED","M":1.5,"K":" 42 ","B":"maybe","C":"TRUE","T":[1]}`), &v))
	require.Zero(t, v.N)
	require.Zero(t, v.M)
	require.EqualValues(t, 42, v.K)
	require.False(t, bool(v.B))
	require.True(t, bool(v.C))
	require.Nil(t, v.T)
	out, err := json.Marshal(v)
	require.NoError(t, err)
	require.JSONEq(t, `{"N":0,"M":0,"K":42,"B":false,"C":true,"T":null}`, string(out))
}

// card.token_created reads as a boolean and as an object; the card's
// account reference, token type, bank code and tokens are typed, and
// tokens "FILTERED" is nil.
func TestStatusTokenCreatedObject(t *testing.T) {
	st := fixture(t, "status_token_created_object.json")
	c := st.Card
	require.Equal(t, TokenCreated{Created: true, Fingerprint: "fp_7a1c", Reference: "cref_92b4", TokenizationStatus: "SUCCESS"}, c.TokenCreated)
	require.Equal(t, "HDFC", c.BankCode)
	require.Equal(t, "HDFC Bank", c.Issuer)
	require.Equal(t, "5001A1B2C3D4E5F6G7H8I9J0K1L2M", c.PaymentAccountReference)
	require.Equal(t, "NETWORK_TOKEN", c.TokenType)
	require.False(t, bool(c.UsingToken))
	require.Equal(t, []CardToken{{Provider: "MASTERCARD", ProviderCategory: "NETWORK_TOKEN", PAR: "5001A1B2C3D4E5F6G7H8I9J0K1L2M",
		LastFourDigits: "8817", Reference: "cref_92b4", Fingerprint: "fp_7a1c", ISIN: "522222"}}, c.Tokens)
	st, err := decodeReply[OrderStatus]([]byte(`{"order_id":"o","card":{"tokens":"FILTERED","token_created":false,"token":"FILTERED"}}`))
	require.NoError(t, err)
	require.Nil(t, st.Card.Tokens)
	require.Nil(t, st.Card.Token)
	require.False(t, st.Card.TokenCreated.Created)
}

// Each element of txn_list is the full, order-shaped transaction with its
// own refunds; AllRefunds gives every refund once, wherever it sat, and
// CheckPaid and IsFinal follow the order's own status and amount.
func TestStatusTwoTransactions(t *testing.T) {
	st := fixture(t, "status_two_transactions.json")
	require.Len(t, st.TxnList, 2)
	a, b := st.TxnList[0], st.TxnList[1]
	require.Equal(t, "shop-ord_two_1-1", a.TxnID)
	require.Equal(t, "uuid_1", a.TxnUUID)
	require.Equal(t, StatusCharged, a.Status)
	require.Equal(t, Amount("200.00"), a.AmountRefunded)
	require.Equal(t, Amount("500.00"), a.EffectiveAmount)
	require.Equal(t, "gw_ref_upi", a.GatewayReferenceID)
	require.Equal(t, "asha@okhdfc", a.PayerVPA)
	require.Equal(t, UPIDetail{PayerVPA: "asha@okhdfc", TxnFlowType: "COLLECT"}, *a.UPI)
	require.Equal(t, TextMap{"split": "1"}, a.Metadata)
	ad := a.TxnDetail
	require.Equal(t, Amount("500.00"), ad.TxnAmount)
	require.Equal(t, Amount("500.00"), ad.NetAmount)
	require.Equal(t, "PAYU", ad.Gateway)
	require.EqualValues(t, 12, ad.GatewayID)
	require.Equal(t, "COLLECT", ad.TxnFlowType)
	require.True(t, bool(ad.ExpressCheckout))
	require.Equal(t, TextMap{"payment_channel": "ANDROID"}, ad.Metadata)
	require.Equal(t, time.Date(2025, 5, 1, 10, 0, 0, 0, time.UTC), ad.Created.Time)
	require.False(t, bool(b.Refunded), "a boolean sent as text")
	require.Equal(t, Amount("1000.00"), b.EffectiveAmount)
	require.Equal(t, "THREE_DS", b.AuthType)
	require.Equal(t, "1111", b.Card.LastFourDigits)
	require.Equal(t, "ACTIVE", b.Mandate.MandateStatus)
	require.EqualValues(t, 27, b.TxnDetail.GatewayID)
	require.True(t, bool(b.TxnDetail.Redirect))

	all := st.AllRefunds()
	var ids []string
	for _, r := range all {
		ids = append(ids, cmp.Or(r.ID, r.UniqueRequestID))
	}
	require.Equal(t, []string{"rfnd_a", "rfnd_b", "rf_c"}, ids, "rfnd_a sits at both levels: once")
	require.Equal(t, time.Date(2025, 5, 2, 9, 0, 0, 0, time.UTC), all[0].Created.Time, "the first copy is kept")
	require.Nil(t, (*OrderStatus)(nil).AllRefunds())

	require.True(t, st.IsPaid())
	require.True(t, st.IsFinal())
	require.NoError(t, st.CheckPaid("1500"), "the order's amount, not one transaction's")
	require.ErrorIs(t, st.CheckPaid("500"), ErrNotPaid)
	st.Status = StatusPartialCharged
	require.False(t, st.IsFinal())
	require.ErrorIs(t, st.CheckPaid("1500"), ErrNotPaid)
}

// A pre-authorised order lists its capture and void, and what it captured.
func TestStatusPreauthCapture(t *testing.T) {
	st := fixture(t, "status_preauth_capture.json")
	require.Equal(t, Amount("1500.00"), st.CapturedAmount)
	require.Equal(t, Amount("1500.00"), st.RefundableAmount)
	require.Equal(t, Amount("1500.00"), st.AmountDebited)
	require.Equal(t, []TxnSubDetail{
		{ID: "sub_cap_1", TxnID: "shop-ord_pre_1-1", Type: "CAPTURE", Status: StatusCharged, Amount: "1500.00", Currency: "INR",
			EPGTxnID: "pay_Na1", Created: Timestamp{time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC)},
			LastUpdated: Timestamp{time.Date(2025, 6, 1, 8, 0, 5, 0, time.UTC)}},
		{ID: "sub_void_1", TxnID: "shop-ord_pre_1-1", Type: "VOID", Status: StatusVoided, Amount: "500.00", Currency: "INR",
			Created: Timestamp{time.Unix(1748768400, 0).UTC()}},
	}, st.TxnSubDetails)
}

// An offer's calculation reads flat and under calculation_info; its error,
// metadata (an object, or text holding one) and product discounts are
// typed.
func TestStatusOffers(t *testing.T) {
	st := fixture(t, "status_offers.json")
	nested, flat := st.Offers[0], st.Offers[1]
	require.Equal(t, "off_nested", nested.OfferID)
	require.Equal(t, "SAVE10", nested.OfferCode)
	require.Equal(t, "AVAILED", nested.Status)
	require.Equal(t, OfferCalculation{CalculationRule: "PERCENTAGE", Value: "10.00", MaxAmount: "150.00"}, nested.Benefits[0].Calculation())
	require.Equal(t, Amount("100.00"), nested.Benefits[0].Amount)
	require.Equal(t, TextMap{"campaign": "diwali", "priority": "2"}, nested.Metadata)
	require.Equal(t, []ProductDiscount{{ProductID: "sku_tee", SKU: "TEE-RED-M", Quantity: 2, Amount: "60.00"}}, nested.ProductDiscounts)
	require.Equal(t, "FAILED", flat.Status)
	require.Equal(t, "OFFER_NOT_APPLICABLE", flat.ErrorCode)
	require.Equal(t, "Minimum order value not met", flat.ErrorMessage)
	require.Equal(t, "CASHBACK", flat.Benefits[0].Type)
	require.Equal(t, OfferCalculation{CalculationRule: "ABSOLUTE", Value: "50.00"}, flat.Benefits[0].Calculation())
	require.Equal(t, TextMap{"campaign": "summer"}, flat.Metadata)
}

// Split settlement on the order, and each refund's split, bank and gateway
// times, references, messages and numeric metadata.
func TestStatusSplitSettlement(t *testing.T) {
	st := fixture(t, "status_split_settlement.json")
	require.Equal(t, &SplitSettlement{SplitApplied: true, SplitDetails: []Split{
		{SubMID: "vendor_a", Amount: "700.00", MerchantCommission: "20.00", Status: "SUCCESS"},
		{SubMID: "vendor_b", Amount: "300.00", Status: "FAILURE", ErrorMessage: "sub account inactive"},
	}}, st.SplitSettlement)
	r := st.Refunds[0]
	require.Equal(t, "pg_rf_771", r.Ref)
	require.Equal(t, "74332745117", r.OrderARN)
	require.Equal(t, "Refund processed", r.ErrorMessage)
	require.Empty(t, r.ErrorCode)
	require.Equal(t, time.Date(2025, 7, 3, 11, 0, 0, 0, time.UTC), r.BankProcessedAt.Time)
	require.Equal(t, time.Date(2025, 7, 2, 9, 30, 0, 0, time.UTC), r.ProcessedAt.UTC())
	require.Equal(t, TextMap{"speed_processed": "NORMAL", "attempts": "3", "instant": "false"}, r.Metadata)
	require.Equal(t, []Split{{SubMID: "vendor_a", Amount: "70.00", Status: "SUCCESS"},
		{SubMID: "vendor_b", Amount: "30.00", Status: "PENDING"}}, r.SplitRefundDetails)
}

// EMI plan ("FILTERED" or an object), EMI type and routing, fraud checks,
// the mandate's bank account, the order's expiry, metadata.payment_links
// as an object and the basket echoed back.
func TestStatusEMIAndRouting(t *testing.T) {
	st := fixture(t, "status_emi_routing.json")
	require.Equal(t, &EMIDetails{Bank: "HDFC", Tenure: 9, InterestRate: "13.50", Interest: "0.00", MonthlyPayment: "3333.33",
		ProcessingFee: "199.00", TotalAmount: "30000.00", EMIType: "NO_COST_EMI"}, st.EMIDetails)
	require.Equal(t, "NO_COST_EMI", st.EMIType)
	require.Equal(t, "HDFC_PG", st.BankPG)
	require.Equal(t, "HDFC", st.EMIBank)
	require.EqualValues(t, 9, st.EMITenure)
	require.Equal(t, time.Date(2025, 8, 1, 12, 15, 0, 0, time.UTC), st.OrderExpiry.Time)
	require.Equal(t, []RiskDetail{
		{Provider: "SIFT", Status: "COMPLETED", RecommendedAction: "ALLOW", Message: "low risk"},
		{Provider: "KOUNT", Status: "COMPLETED", Flagged: true, RecommendedAction: "REVIEW"},
	}, st.RiskChecks)
	require.Equal(t, &BankDetails{AccountNumber: "XXXXXX4321", IFSC: "HDFC0000123", Name: "Asha Rao", BankName: "HDFC Bank",
		AccountType: "SAVINGS"}, st.Mandate.BankDetails)
	require.Equal(t, "EMANDATE", st.Mandate.MandateType)
	var links PaymentLinks
	require.NoError(t, json.Unmarshal([]byte(st.Metadata["payment_links"]), &links))
	require.Equal(t, PaymentLinks{Web: "https://pay.example/o/ord_emi_1", Mobile: "https://pay.example/m/ord_emi_1"}, links)
	require.Equal(t, "shop", st.Metadata["payment_page_client_id"])
	require.Equal(t, []BasketItem{{ID: "sku_tv", SKU: "TV-55-OLED", Quantity: 1, UnitPrice: "30000.00", Category: "electronics",
		Description: "55in OLED TV", ProductURL: "https://shop.example/tv", SellerType: "FIRST_PARTY",
		CustomParams: TextMap{"warranty": "2y", "gift": "true"}}}, st.Basket)

	st, err := decodeReply[OrderStatus]([]byte(`{"order_id":"o","emi_details":"FILTERED","split_settlement_response":"FILTERED"}`))
	require.NoError(t, err)
	require.Nil(t, st.EMIDetails)
	require.Nil(t, st.SplitSettlement)
}

// CreateOrder and CreateSession refuse a reply about another order, as
// GetOrder and Refund do, and the error quotes only the order asked for:
// reply data (where an echoed key may sit) never reaches it.
func TestCreateRefusesReplyAboutAnotherOrder(t *testing.T) {
	const other = `{"status":"NEW","id":"ordeh_2","order_id":"o2-SECRETKEY","sdk_payload":{"requestId":"r"}}`
	c, _ := replyingClient(t, other)
	ctx := context.Background()
	o, err := c.CreateOrder(ctx, fullOrder())
	require.Nil(t, o)
	require.EqualError(t, err, `checkout: create order: decode response: the reply is about another order than "HD-1707740261"`)
	s, err := c.CreateSession(ctx, baseSession())
	require.Nil(t, s)
	require.EqualError(t, err, `checkout: create session: decode response: the reply is about another order than "order_dummy_1"`)
	_, err = c.GetOrder(ctx, "o1")
	require.NotContains(t, err.Error(), "SECRETKEY")

	c, _ = replyingClient(t, `{"status":"NEW","id":"ordeh_2","sdk_payload":{"requestId":"r"}}`)
	_, err = c.CreateSession(ctx, baseSession())
	require.NoError(t, err, "a reply that names no order is not about another")
	req := baseSession()
	req.Action, req.OrderID, req.Amount = PaymentManagement, "", ""
	c, _ = replyingClient(t, other)
	_, err = c.CreateSession(ctx, req)
	require.NoError(t, err, "a request that names no order has none to compare")
}
