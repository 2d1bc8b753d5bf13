package checkout

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/conformance"
)

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
		require.Nil(t, st.Card)
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
		require.Nil(t, st.Card, `"card": "FILTERED"`)
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
		require.NoError(t, json.Unmarshal(s.Data, &ev))
		txn := ev.Content.Txn
		require.Equal(t, StatusAuthorizationFailed, txn.Status)
		require.EqualValues(t, 27, txn.StatusID)
		require.Equal(t, "03", txn.ErrorCode)
		require.Equal(t, "Not sufficient funds", txn.ErrorMessage)
		require.Equal(t, "CARD", txn.PaymentMethodType)
		require.Nil(t, txn.Card)
		require.NotNil(t, txn.PaymentGatewayResponse)
		require.Empty(t, txn.PaymentGatewayResponse.EPGTxnID)
	})
}

// The order of an order webhook decodes into the OrderStatus GetOrder
// returns, with the same methods.
func TestOrderWebhookContentIsOrderStatus(t *testing.T) {
	for _, s := range conformance.Files(t, "webhooks", "webhook_order_*.json") {
		t.Run(s.Name, func(t *testing.T) {
			m := genericJSON(t, s.Data)
			order := m["content"].(map[string]any)["order"].(map[string]any)
			b, err := json.Marshal(order)
			require.NoError(t, err)
			var st OrderStatus
			require.NoError(t, json.Unmarshal(b, &st))
			require.Equal(t, order["order_id"], st.OrderID)
			require.Equal(t, order["status"], string(st.Status))
			require.True(t, st.Status.Known())
			require.EqualValues(t, st.Status.ID(), st.StatusID, "the status and its number agree")
			require.Equal(t, m["event_name"] != "ORDER_FAILED", st.IsPaid(), "a refunded or refund-failed order stays CHARGED")
			require.True(t, st.IsFinal())
		})
	}
}
