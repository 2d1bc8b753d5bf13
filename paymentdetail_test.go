package checkout

import (
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/conformance"
)

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

// card.token_created reads as a boolean and as an object; the card's
// account reference, token type, bank code and tokens are typed, and
// a redacted token or tokens is zero.
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
	require.Zero(t, st.Card.Token)
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
	require.Equal(t, UPIDetail{PayerVPA: "asha@okhdfc", TxnFlowType: "COLLECT"}, a.UPI)
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

// A pre-authorised order lists its steps (txn_sub_details), each
// transaction-shaped with the gateway's answer; a redacted answer is zero;
// numbers and booleans sent as text read as values.
func TestStatusPreauthCapture(t *testing.T) {
	st := fixture(t, "status_preauth_capture.json")
	require.Equal(t, Amount("1500.00"), st.CapturedAmount)
	require.Equal(t, Amount("1500.00"), st.RefundableAmount)
	require.Equal(t, Amount("1500.00"), st.AmountDebited)
	require.Equal(t, StatusAuthorized, st.TxnDetail.Status)
	require.Equal(t, []Transaction{
		{TxnID: "shop-ord_pre_1-1", TxnUUID: "mozj3hXbHnPZrFY1", OrderID: "ord_pre_1", Status: StatusCharged,
			Gateway: "RAZORPAY", GatewayID: 23, Currency: "INR", TxnAmount: "1500.00", NetAmount: "1500.00", OrderAmount: "2000.00",
			TxnFlowType: "CARD_TRANSACTION", TxnObjectType: "PARTIAL_CAPTURE", SourceObject: "TXN_SUB_DETAIL",
			SourceObjectID: "tsd_8c1f", Redirect: true, Created: Timestamp{time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC)},
			PaymentGatewayResponse: GatewayResponse{RespCode: "SUCCESS", RRN: "515208374613", EPGTxnID: "pay_Na1",
				RespMessage: "Captured", AuthIDCode: "831000", TxnID: "shop-ord_pre_1-1",
				Created: Timestamp{time.Date(2025, 6, 1, 8, 0, 3, 0, time.UTC)}}},
		{TxnID: "shop-ord_pre_1-1", TxnUUID: "mozj3hXbHnPZrFY2", OrderID: "ord_pre_1", Status: StatusCaptureFailed,
			Gateway: "RAZORPAY", GatewayID: 23, Currency: "INR", TxnAmount: "500.00", OrderAmount: "2000.00",
			ErrorCode: "BAD_REQUEST", ErrorMessage: "amount exceeds the authorised amount", TxnObjectType: "PARTIAL_CAPTURE",
			SourceObject: "TXN_SUB_DETAIL", SourceObjectID: "tsd_9d2a", Created: Timestamp{time.Unix(1748768400, 0).UTC()}},
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

// Split settlement on the order (each part's sub-vendor, gateway
// sub-account, transfer id and notes sent as JSON text), and each refund's
// split, bank and gateway times, references, messages and numeric metadata.
func TestStatusSplitSettlement(t *testing.T) {
	st := fixture(t, "status_split_settlement.json")
	require.Equal(t, SplitSettlement{SplitApplied: true, SplitDetails: []Split{
		{SubVendorID: "vendor_a", GatewaySubAccountID: "acc_Na7", Amount: "700.00", MerchantCommission: "20.00",
			EPGTxnID: "trf_Na8", Notes: TextMap{"branch": "north", "invoice": "1042"}},
		{SubVendorID: "vendor_b", GatewaySubAccountID: "acc_Nb2", Amount: "300.00", MerchantCommission: "0.00",
			EPGTxnID: "trf_Nb3", Notes: TextMap{}},
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

// EMI plan with its interest and tenure as bare numbers (or "FILTERED"),
// EMI type and routing, fraud checks, the mandate's bank account, the
// order's expiry, metadata.payment_links as an object and the basket
// echoed back.
func TestStatusEMIAndRouting(t *testing.T) {
	st := fixture(t, "status_emi_routing.json")
	require.Equal(t, EMIDetails{Bank: "HDFC", Tenure: EMITenure{Duration: 9}, Interest: EMIInterest{Amount: "0.00"},
		MonthlyPayment: "3333.33", PrincipalAmount: "30000.00", EMIType: "NO_COST_EMI", SubventionInfo: []json.RawMessage{}}, st.EMIDetails)
	require.Equal(t, "NO_COST_EMI", st.EMIType)
	require.Equal(t, "HDFC_PG", st.BankPG)
	require.Equal(t, "HDFC", st.EMIBank)
	require.EqualValues(t, 9, st.EMITenure)
	require.Equal(t, time.Date(2025, 8, 1, 12, 15, 0, 0, time.UTC), st.OrderExpiry.Time)
	require.Equal(t, []RiskDetail{
		{Provider: "SIFT", Status: "COMPLETED", RecommendedAction: "ALLOW", Message: "low risk"},
		{Provider: "KOUNT", Status: "COMPLETED", Flagged: true, RecommendedAction: "REVIEW"},
	}, st.RiskChecks)
	require.Equal(t, BankDetails{AccountNumber: "XXXXXX4321", IFSC: "HDFC0000123", Name: "Asha Rao", BankName: "HDFC Bank",
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
	require.Zero(t, st.EMIDetails)
	require.Zero(t, st.SplitSettlement)
}

// Named fields of the published samples, read as a merchant reads them.
func TestOrderStatusSampleFields(t *testing.T) {
	order := func(t *testing.T, dir, name string) *OrderStatus {
		t.Helper()
		s := conformance.Files(t, dir, name)[0]
		var st OrderStatus
		if dir == "webhooks" {
			var ev struct {
				Content struct {
					Order json.RawMessage `json:"order"`
				} `json:"content"`
			}
			require.NoError(t, json.Unmarshal(s.Data, &ev))
			require.NoError(t, json.Unmarshal(ev.Content.Order, &st))
			return &st
		}
		got, err := decodeReply[OrderStatus](s.Data)
		require.NoError(t, err)
		return got
	}
	t.Run("card, refunded in part (refund_order_response)", func(t *testing.T) {
		st := order(t, "refunds", "refund_order_response.json")
		require.Equal(t, StatusCharged, st.Status)
		require.True(t, st.IsPaid())
		require.NoError(t, st.CheckPaid("1.00"))
		require.NoError(t, st.CheckPaid("1"))
		require.Equal(t, "VISA", st.Card.Brand)
		require.Equal(t, "CREDIT", st.Card.Type)
		require.Equal(t, "411111", st.Card.ISIN)
		require.Equal(t, "JP Morgan", st.Card.Issuer)
		require.True(t, bool(st.Card.UsingSavedCard))
		require.False(t, bool(st.Card.SavedToLocker))
		require.Equal(t, "RAZORPAY", st.TxnDetail.Gateway)
		require.EqualValues(t, 23, st.TxnDetail.GatewayID)
		require.Equal(t, StatusCharged, st.TxnDetail.Status)
		require.True(t, bool(st.TxnDetail.ExpressCheckout))
		require.Equal(t, "pay_IJZKtTpkiYWE24", st.PaymentGatewayResponse.EPGTxnID)
		require.Equal(t, "156555", st.PaymentGatewayResponse.RRN)
		require.Equal(t, "SUCCESS", st.PaymentGatewayResponse.RespCode)
		require.Equal(t, "testmid", st.Metadata["RAZORPAY:gateway_reference_id"])
		require.Len(t, st.Refunds, 1)
		r := st.Refunds[0]
		require.Equal(t, RefundPending, r.Status)
		require.Equal(t, RefundStandard, r.RefundType)
		require.Equal(t, "RAZORPAY", r.RefundSource)
		require.False(t, bool(r.SentToGateway))
		require.Empty(t, r.ID)
		require.Equal(t, "TEST1637681731", r.UniqueRequestID)
	})
	t.Run("net banking with a breakup in text (nb)", func(t *testing.T) {
		st := order(t, "orders", "order_status_response_nb.json")
		require.Equal(t, "NB_HDFC", st.PaymentMethod)
		require.Equal(t, "THREE_DS", st.AuthType)
		require.Zero(t, st.Card)
		b := st.TxnDetail.AmountBreakup
		require.Len(t, b, 3)
		require.Equal(t, BreakupLine{Name: "BASE", Value: "9000.00", Method: "ADD", SNo: 1}, b[0], "the text form names it value")
		decimalEqual(t, "200", b[2].Value)
		require.Equal(t, "SampleAddOnAmount2", b[2].Description)
		decimalEqual(t, "500", st.TxnDetail.OfferDeductionAmount)
		require.Error(t, st.CheckPaid("9700"), "the order amount, not the effective amount, is checked")
		require.NoError(t, st.CheckPaid("9000"))
	})
	t.Run("cash on delivery (cod)", func(t *testing.T) {
		st := order(t, "orders", "order_status_response_cod.json")
		require.Equal(t, StatusCODInitiated, st.Status)
		require.EqualValues(t, 29, st.StatusID)
		require.False(t, st.IsPaid())
		require.False(t, st.IsFinal())
		require.ErrorIs(t, st.CheckPaid("100"), ErrNotPaid)
		decimalEqual(t, "150", st.TxnDetail.SurchargeAmount)
		decimalEqual(t, "250", st.TxnDetail.TxnAmount)
		require.Equal(t, "CASH_PAY", st.TxnDetail.TxnFlowType)
		require.Equal(t, "defaultclient", st.Metadata["payment_page_client_id"])
		require.Contains(t, st.Metadata["payment_links"], `"web":"https://`, "an object as its JSON text")
		require.Equal(t, "COD initiated successfully", st.BankErrorMessage)
	})
	t.Run("wallet with an older refund (wallet)", func(t *testing.T) {
		st := order(t, "orders", "order_status_response_wallet.json")
		require.Equal(t, "GOOGLEPAY", st.PaymentMethod)
		require.Equal(t, "PAYTM_V2", st.TxnDetail.Gateway)
		require.Equal(t, "0149717932", st.Refunds[0].OrderARN, "arn, as order replies name it")
		require.Equal(t, RefundSuccess, st.Refunds[0].Status)
		require.Equal(t, "null", st.PayerVPA, "text is kept as sent")
	})
	t.Run("webhook: order succeeded, card redacted", func(t *testing.T) {
		st := order(t, "webhooks", "webhook_order_succeeded.json")
		require.True(t, st.IsPaid())
		require.Zero(t, st.Card, `"card": "FILTERED"`)
		require.Equal(t, "FILTERED", st.CustomerEmail, "redacted text stays as sent")
		require.True(t, st.DateCreated.IsZero(), "1111111T07:00:40Z is no time")
		require.JSONEq(t, `{"authCode":"ybbjy9","resMessage":"FILTERED","mandateToken":"FILTERED","resCode":"200"}`,
			string(st.PaymentGatewayResponse.Full))
		require.Equal(t, "WEB", st.TxnDetail.Metadata["payment_channel"])
	})
	t.Run("webhook: refund in manual review, wallet and risk", func(t *testing.T) {
		st := order(t, "webhooks", "webhook_auto_refunded_ec_headless.json")
		require.Equal(t, RefundManualReview, st.Refunds[0].Status)
		require.Equal(t, "AUTO_REFUNDED", st.Refunds[0].InitiatedBy)
		require.Equal(t, "REDIRECT", st.Wallet.TxnFlowType)
		require.Equal(t, "JUSPAYFRM", st.Risk.Provider)
		require.False(t, bool(st.Risk.Flagged))
	})
	t.Run("webhook: failed global order, breakup as array", func(t *testing.T) {
		st := order(t, "webhooks", "webhook_order_failed_global.json")
		require.Equal(t, StatusAuthenticationFailed, st.Status)
		require.True(t, st.IsFinal())
		require.False(t, st.IsPaid())
		require.Equal(t, "TECHNICAL_ERROR", st.RespCategory)
		require.Equal(t, "TECHNICAL_ERROR", st.TxnDetail.ResponseCode)
		require.Equal(t, "JPY", st.TxnDetail.Currency)
		b := st.TxnDetail.AmountBreakup
		require.Len(t, b, 1)
		require.Equal(t, BreakupLine{Name: "BASE", Amount: b[0].Amount, Method: "ADD"}, b[0], `"sno": "FILTERED" is left zero`)
		decimalEqual(t, "9150", b[0].Amount)
		require.Equal(t, "REDIRECT_DEBIT", st.Wallet.TxnFlowType)
		require.False(t, st.LastUpdated.IsZero())
	})
	t.Run("webhook: mandate registration", func(t *testing.T) {
		st := order(t, "webhooks", "webhook_order_succeeded_mandate.json")
		m := st.Mandate
		require.Equal(t, "3XMEcS1z2212Gq7fbfVYbzj", m.MandateID)
		require.Equal(t, "ACTIVE", m.MandateStatus)
		require.Equal(t, "MONTHLY", m.Frequency)
		require.Equal(t, "1598745600", m.StartDate)
		require.EqualValues(t, 30, m.RuleValue)
		require.True(t, bool(m.RevokableByCustomer))
		decimalEqual(t, "1000", m.MaxAmount)
		require.Equal(t, "EMANDATE_REGISTER", st.TxnDetail.TxnObjectType)
		require.Equal(t, "MANDATE", st.TxnDetail.SourceObject)
		require.Equal(t, "upimandate", st.Metadata["PAYTM_V2:gateway_reference_id"])
	})
	t.Run("webhook: transaction failed", func(t *testing.T) {
		s := conformance.Files(t, "webhooks", "webhook_txn_failed.json")[0]
		var ev struct {
			Content struct {
				Txn Transaction `json:"txn"`
			} `json:"content"`
		}
		require.NoError(t, decodeLenient(s.Data, &ev), "a redacted card is left out, as the webhook package reads it")
		txn := ev.Content.Txn
		require.Equal(t, StatusAuthorizationFailed, txn.Status)
		require.EqualValues(t, 27, txn.StatusID)
		require.Equal(t, "03", txn.ErrorCode)
		require.Equal(t, "Not sufficient funds", txn.ErrorMessage)
		require.Equal(t, "CARD", txn.PaymentMethodType)
		require.Zero(t, txn.Card)
		require.Empty(t, txn.PaymentGatewayResponse.EPGTxnID)
	})
}

// partialCharged is an order paid in part by UPI, the rest to be charged
// by card, as an ORDER_PARTIAL_CHARGED webhook and the order status carry
// it (the service's naming; no published sample holds it).
const partialCharged = `{"order_id":"ord_split","id":"ordeh_split","status":"PARTIAL_CHARGED","status_id":37,"amount":1500,
 "txn_id":"shop-ord_split-2","emi_bank":"HDFC","emi_tenure":6,
 "upi":{"payer_vpa":"asha@okhdfc","txn_flow_type":"INTENT","payer_app":"GPAY"},
 "card":{"card_brand":"VISA","card_type":"CREDIT","last_four_digits":"1111","using_token":true,"token_created":true,
  "tokenization_user_consent":true,"card_issuer_country":"INDIA","extended_card_type":"PREPAID",
  "token":{"provider":"VISA","provider_category":"NETWORK_TOKEN","par":"V0010013018209",
   "last_four_digits":"4321","tokenization_status":"ACTIVE"}},
 "offers":[{"offer_id":"off_1","offer_code":"NEWUSER","status":"AVAILED",
  "benefits":[{"type":"DISCOUNT","amount":100,"calculation_rule":"ABSOLUTE","value":"100"}]}],
 "txn_list":[
  {"txn_id":"shop-ord_split-1","status":"CHARGED","payment_method_type":"UPI","payment_method":"GPAY",
   "txn_detail":{"txn_id":"shop-ord_split-1","status":"CHARGED","txn_amount":"500"}},
  {"txn_id":"shop-ord_split-2","status":"TO_BE_CHARGED","payment_method_type":"CARD","payment_method":"VISA",
   "txn_detail":{"txn_id":"shop-ord_split-2","status":"TO_BE_CHARGED","txn_amount":1000}}]}`

// An order paid by several transactions: the list, both statuses with
// their ids, the card's tokenisation fields, the EMI plan, the UPI app and
// the offer's benefits are typed.
func TestPartialChargedOrderTyped(t *testing.T) {
	st, err := decodeReply[OrderStatus]([]byte(partialCharged))
	require.NoError(t, err)
	require.Equal(t, StatusPartialCharged, st.Status)
	require.EqualValues(t, 37, StatusPartialCharged.ID())
	require.EqualValues(t, 38, StatusToBeCharged.ID())
	require.True(t, StatusToBeCharged.Known())
	require.False(t, st.IsPaid(), "a partly paid order is not paid")
	require.False(t, st.IsFinal())
	require.ErrorIs(t, st.CheckPaid("1500.00"), ErrNotPaid)
	require.Len(t, st.TxnList, 2)
	require.Equal(t, StatusCharged, st.TxnList[0].Status)
	require.Equal(t, "UPI", st.TxnList[0].PaymentMethodType)
	require.Equal(t, Amount("500.00"), st.TxnList[0].TxnDetail.TxnAmount)
	require.Equal(t, StatusToBeCharged, st.TxnList[1].Status)
	require.Equal(t, "VISA", st.TxnList[1].PaymentMethod)
	require.Equal(t, Amount("1000.00"), st.TxnList[1].TxnDetail.TxnAmount)
	require.Equal(t, "GPAY", st.UPI.PayerApp)
	require.Equal(t, "HDFC", st.EMIBank)
	require.Equal(t, Int(6), st.EMITenure)
	c := st.Card
	require.True(t, bool(c.UsingToken))
	require.True(t, c.TokenCreated.Created)
	require.True(t, bool(c.TokenizationUserConsent))
	require.Equal(t, "INDIA", c.IssuerCountry)
	require.Equal(t, "PREPAID", c.ExtendedType)
	require.Equal(t, "NETWORK_TOKEN", c.Token.ProviderCategory)
	require.Equal(t, "V0010013018209", c.Token.PAR)
	require.Contains(t, st.Raw.String(), `"tokenization_status":"ACTIVE"`, "what is not typed stays in Raw")
	require.Equal(t, []OfferBenefit{{Type: "DISCOUNT", Amount: "100.00",
		OfferCalculation: OfferCalculation{CalculationRule: "ABSOLUTE", Value: "100.00"}}}, st.Offers[0].Benefits)
}

// The rest of a card, UPI and transaction that real replies carry: the
// token's tokenisation status, the service's bank code, the UPI mode, a
// payment without CVV; and the order's source object and next actions.
func TestStatusCardUPIMore(t *testing.T) {
	st := fixture(t, "status_card_upi_more.json")
	require.Equal(t, "ACTIVE", st.Card.Token.TokenizationStatus)
	require.Equal(t, "NETWORK_TOKEN", st.Card.Token.ProviderCategory)
	require.Equal(t, "JP_HDFC", st.Card.ServiceBankCode)
	require.Equal(t, UPIDetail{PayerVPA: "asha@okhdfc", TxnFlowType: "INTENT",
		PaymentMethodSubDetail: UPIMethodSubDetail{Mode: "UPI_CREDIT_CARD"}}, st.UPI)
	require.True(t, bool(st.TxnDetail.IsCVVLessTxn), "a boolean sent as text")
	require.Equal(t, "PAYMENT_LINK", st.SourceObject)
	require.Equal(t, "plink_41x", st.SourceObjectID)
	require.NotNil(t, st.NextAction, "an empty list is a list")
	require.Empty(t, st.NextAction)

	st, err := decodeReply[OrderStatus]([]byte(`{"order_id":"o","next_action":[{"type":"REDIRECT","url":"https://bank.example/acs"}],` +
		`"upi":{"payment_method_sub_detail":"FILTERED","payer_vpa":"a@b"}}`))
	require.NoError(t, err)
	require.Len(t, st.NextAction, 1)
	require.JSONEq(t, `{"type":"REDIRECT","url":"https://bank.example/acs"}`, string(st.NextAction[0]))
	require.Equal(t, UPIDetail{PayerVPA: "a@b"}, st.UPI, "a redacted sub-detail is zero")
}

// A transaction or mandate kept and decoded by the merchant reads a
// redacted block as zero, as the client and webhook read it, no error.
func TestStoredBlocksDecodeLeniently(t *testing.T) {
	var x Transaction
	require.NoError(t, json.Unmarshal([]byte(`{"txn_id":"t1","card":"FILTERED","payment_gateway_response":"FILTERED"}`), &x))
	require.Equal(t, "t1", x.TxnID)
	require.Zero(t, x.Card)
	var m MandateDetail
	require.NoError(t, json.Unmarshal([]byte(`{"mandate_id":"m1","payment_info":"FILTERED"}`), &m))
	require.Equal(t, "m1", m.MandateID)
	require.Zero(t, m.PaymentInfo)
}
