package e2e_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/webhook"
)

// TestConformanceTable maps every published sample in ../shared/conformance
// to the typed value the SDK gives it, through the public API only: request
// bodies decode into their request type, are validated and encode back to
// the same JSON (key order and the documented normalisations aside);
// replies and webhooks decode into their reply type and event; each row
// checks named fields of the result. Samples published as not valid JSON,
// or flagged MALFORMED/TRUNCATED/FRAGMENT/PARTIAL, are negative vectors:
// they must fail to decode (or, for the MALFORMED filter, fail Validate at
// the documented path). Sealed /v4 replies are refused by a Basic-mode
// client with checkout.ErrEnvelope: the JWE path (WithJWE) opens them. A
// sample that no row covers fails the test, so a new sample cannot be
// skipped silently.
func TestConformanceTable(t *testing.T) {
	rows := map[string]sampleRow{}
	for _, r := range conformanceRows {
		_, dup := rows[r.file]
		require.False(t, dup, "two rows for %s", r.file)
		rows[r.file] = r
	}
	seen := map[string]bool{}
	var total, typed, reasoned int
	for _, dir := range conformance.Folders(t) {
		for _, s := range conformance.Files(t, dir, "*") {
			file := dir + "/" + s.Name
			total++
			r, ok := rows[file]
			if !ok {
				t.Errorf("no row of conformanceRows covers the sample %s: add one naming its type and fields", file)
				continue
			}
			seen[file] = true
			if r.reason != "" {
				reasoned++
			} else {
				typed++
			}
			t.Run(file, func(t *testing.T) { checkRow(t, r, s) })
		}
	}
	for _, r := range conformanceRows {
		if !seen[r.file] {
			t.Errorf("the row for %s names no sample file", r.file)
		}
	}
	t.Logf("%d samples: %d mapped to a typed value, %d recorded with the reason they are not one", total, typed, reasoned)
	require.GreaterOrEqual(t, total, 140, "the samples were emptied?")
}

// kind is how a row's sample is read.
type kind int

const (
	kSessionRequest kind = iota // checkout.SessionRequest: decode, Validate, encode back
	kSDKUDF                     // sdk_udf fragments: checkout.SessionRequest.EMI (emi.Visibility)
	kSession                    // checkout.Session, the reply of CreateSession
	kSDKPayload                 // the client SDK payload a Session carries unread (Session.SDKPayload)
	kOrder                      // checkout.Order, the reply of CreateOrder
	kOrderStatus                // checkout.OrderStatus: GetOrder, Refund, UpdateOrder
	kRefund                     // checkout.Refund: RefundTransaction, instant refunds
	kAPIError                   // checkout.APIError: any non-2xx body
	kEvent                      // webhook.Event and its typed content
	kFilter                     // paymentfilter.Filter (payment_filter, with emi.Options)
	kSummary                    // productsummary.Summary
	kSealed                     // a /v4 JWE envelope: refused by a Basic client
	kWebhookJWT                 // a {"JWT": …} webhook body: opened by Config.Decrypter
	kJWS                        // compact JWS test vectors of the JWE+JWS mode
	kReturnURL                  // the redirect checkout.VerifyReturn checks
	kSchema                     // the service's type schema of payment_filter
	kOther                      // not a message of a call the SDK makes (reason says why)
)

// typeOf names the Go type a kind maps its sample to.
var typeOf = map[kind]string{
	kSessionRequest: "checkout.SessionRequest",
	kSDKUDF:         "checkout.SessionRequest.EMI (emi.Visibility)",
	kSession:        "checkout.Session",
	kSDKPayload:     "checkout.Session.SDKPayload (passed on unread)",
	kOrder:          "checkout.Order",
	kOrderStatus:    "checkout.OrderStatus",
	kRefund:         "checkout.Refund",
	kAPIError:       "checkout.APIError",
	kEvent:          "webhook.Event",
	kFilter:         "paymentfilter.Filter",
	kSummary:        "productsummary.Summary",
	kSealed:         "a sealed reply, opened by WithJWE",
	kWebhookJWT:     "webhook.Event, opened by Config.Decrypter",
	kJWS:            "a compact JWS of the JWE+JWS mode",
	kReturnURL:      "checkout.ReturnRedirect (checkout.VerifyReturn)",
	kSchema:         "paymentfilter / emi json tags",
	kOther:          "none",
}

// fields are named fields of the typed value and the text expected in
// them. A name is a Go path from the value: "OrderID",
// "TxnDetail.Gateway", "Refunds[0].Status", "Extra[udf1]", "Kind()"
// (a method without arguments) or "Options.len()". Amounts compare as
// decimals ("8" equals "8.00"); times as RFC 3339 in UTC.
type fields map[string]string

type sampleRow struct {
	file string // folder/name under ../shared/conformance
	kind kind
	want fields
	// negative marks a sample published as not valid JSON or flagged in
	// its name: it must fail to decode (or Validate, with problem).
	negative bool
	// wantErr is the error the sample must give (matched with errors.Is).
	wantErr error
	// problem is the path Validate must report for a negative request.
	problem string
	// event is the constant the event's name must equal (kEvent).
	event string
	// content is the key the event nests its content under (kEvent).
	content string
	// call is the /v4 call whose sealed reply the sample is (kSealed).
	call string
	// reason says why the sample is no message of a call the SDK makes.
	reason string
}

// checkRow reads one sample as its row says.
func checkRow(t *testing.T, r sampleRow, s conformance.Sample) {
	t.Logf("%s → %s", r.file, typeOf[r.kind])
	switch r.kind {
	case kSDKUDF, kJWS, kReturnURL, kSchema:
		require.False(t, s.ValidJSON(), "a text sample, not JSON")
	default:
		require.Equal(t, !s.ValidJSON() || s.Negative(), r.negative,
			"a sample published as not valid JSON, or flagged in its name, is a negative vector (and only such a sample)")
	}
	if !r.negative && r.reason == "" {
		require.GreaterOrEqual(t, len(r.want), 2, "a row checks several named fields")
	}
	if r.reason != "" {
		require.Equal(t, kOther, r.kind, "only rows of kind kOther give a reason instead of a type")
	}

	v, err := decodeRow(t, r, s)
	switch {
	case r.wantErr != nil:
		require.ErrorIs(t, err, r.wantErr)
	case r.negative:
		require.Error(t, err, "a negative vector must not decode (or validate)")
		if r.problem != "" {
			var ve *checkout.ValidationError
			require.ErrorAs(t, err, &ve)
			require.True(t, slices.ContainsFunc(ve.Problems, func(p checkout.Problem) bool { return p.Path == r.problem }),
				"want a problem at %s, got %v", r.problem, err)
		}
	default:
		require.NoError(t, err)
	}
	if v == nil {
		require.Empty(t, r.want, "fields named, but the sample gave no value")
		return
	}
	for path, want := range r.want {
		got, err := lookup(reflect.ValueOf(v), path)
		require.NoError(t, err, path)
		sameText(t, path, want, got)
	}
}

// conformanceRows names, for every sample, the type it maps to and the
// fields checked. Keep one row per file, grouped by folder.
var conformanceRows = []sampleRow{
	// emi/: EMI filters inside payment_filter (paymentfilter.Filter.EMIOptions, an emi.Options).
	{file: "emi/payment_filter_emi_all_types_allowDefaultOptions_false.json", kind: kFilter, want: fields{"AllowDefaultOptions": "false", "EMIOptions.StandardEMI.Enable": "true", "EMIOptions.LowCostEMI.Enable": "true", "EMIOptions.NoCostEMI.Enable": "true"}},
	{file: "emi/payment_filter_emi_hide_all.json", kind: kFilter, want: fields{"AllowDefaultOptions": "true", "EMIOptions.StandardEMI.Enable": "false", "EMIOptions.LowCostEMI.Enable": "false", "EMIOptions.NoCostEMI.Enable": "false"}},
	{file: "emi/payment_filter_emi_hide_nocost_credit.json", kind: kFilter, want: fields{"AllowDefaultOptions": "true", "EMIOptions.StandardEMI.Enable": "true", "EMIOptions.NoCostEMI.Credit.Enable": "false"}},
	{file: "emi/payment_filter_emi_nocost_only.json", kind: kFilter, want: fields{"AllowDefaultOptions": "true", "EMIOptions.StandardEMI.Enable": "false", "EMIOptions.NoCostEMI.Enable": "true"}},
	{file: "emi/payment_filter_emi_nocost_remove_icici_tenure_9_12.json", kind: kFilter, want: fields{"AllowDefaultOptions": "true", "EMIOptions.NoCostEMI.Enable": "true", "EMIOptions.NoCostEMI.Credit.Enable": "true", "EMIOptions.NoCostEMI.Credit.Filters[0].PaymentMethod": "CARD", "EMIOptions.NoCostEMI.Credit.Filters[0].IssuerFilter.Issuers[0]": "SVC_ICICI", "EMIOptions.NoCostEMI.Credit.Filters[0].IssuerFilter.Tenures[0].From": "9", "EMIOptions.NoCostEMI.Credit.Filters[0].IssuerFilter.Tenures[0].To": "12"}},
	{file: "emi/payment_filter_emi_showOnlyEmi.json", kind: kFilter, want: fields{"AllowDefaultOptions": "true", "EMIOptions.ShowOnlyEMI": "true"}},
	{file: "emi/payment_filter_emi_standard_credit_hdfc_tenure_3_FRAGMENT.json", kind: kFilter, negative: true},
	{file: "emi/sdk_udf_emi_values.txt", kind: kSDKUDF, want: fields{"Values.len()": "3", "Values[0]": "showEMI", "Values[1]": "hideEMI", "Values[2]": "ShowEMIWithoutCards"}},

	// errors/: error bodies, read by APIError whatever the call.
	{file: "errors/order_create_moto_error_400_no_gateway.json", kind: kAPIError, want: fields{"Status": "Bad Request", "ErrorCode": "invalid_request_error", "ErrorMessage": "Can't find a suitable gateway to process the transaction", "Info": "{}"}},
	{file: "errors/order_fulfilment_error_400_no_txn.json", kind: kAPIError, want: fields{"Status": "ERROR", "ErrorCode": "No txn Found", "ErrorMessage": "No successfull txn found for given order_id ", "Info.Code": "RESOURCE_NOT_FOUND", "Info.RequestID": "22359ce5-07d5-43bb-bdcb-6e35c46714d1"}},
	{file: "errors/order_status_error_401_access_denied.json", kind: kAPIError, want: fields{"Status": "error", "ErrorCode": "access_denied", "Info.Code": "UNAUTHORIZED", "Info.Category": "USER_ERROR"}},
	{file: "errors/session_error_400_amount_high.json", kind: kAPIError, want: fields{"Status": "ERROR", "StatusID": "-1", "ErrorCode": "INVALID_REQUEST", "ErrorMessage": "mandate_max_amount exceeds mandate maxAmount threshold.", "Info.Code": "UNKNOWN_ERROR", "Info.RequestID": "c79c055e-ffc6-416e-a079-6f1c2afaeeb1"}},
	{file: "errors/session_error_400_amount_low.json", kind: kAPIError, want: fields{"Status": "ERROR", "StatusID": "-1", "ErrorCode": "INVALID_REQUEST", "ErrorMessage": "mandate_max_amount should be greater than or equal to 1", "Info.Code": "UNKNOWN_ERROR"}},
	{file: "errors/session_error_400_invalid_frequency.json", kind: kAPIError, want: fields{"Status": "ERROR", "StatusID": "-1", "ErrorCode": "INVALID_BLOCK_FUNDS", "ErrorMessage": "Block fund should be false for recurring and true for OT mandate.", "Info.RequestID": "85003090-fd2c-427c-aa96-b4704f0128f2"}},
	{file: "errors/session_error_400_invalid_gateway.json", kind: kAPIError, want: fields{"Status": "invalid_request_error", "ErrorCode": "INVALID_REQUEST", "Info.Code": "INVALID_INPUT"}},
	{file: "errors/session_error_response_400.json", kind: kAPIError, want: fields{"Status": "Bad Request", "ErrorCode": "Mandatory fields are missing", "ErrorMessage": "Mandatory fields are missing", "Info.Code": "INVALID_INPUT"}},
	{file: "errors/session_error_response_401.json", kind: kAPIError, want: fields{"Status": "error", "ErrorCode": "access_denied", "Info.Code": "UNAUTHORIZED", "Info.RequestID": "949da375-f13c-4054-af38-9996672361a3"}},
	{file: "errors/wallet_link_error_otp_required.json", kind: kAPIError, want: fields{"Status": "Invalid Request", "ErrorCode": "Invalid", "ErrorMessage": "OTP is required while linking wallet."}},

	// jwt/: the JWE+JWS mode's envelopes, opened by WithJWE (requests and
	// replies) and webhook.Config.Decrypter (webhooks).
	{file: "jwt/jws_rs256_test_vector_php_sdk.txt", kind: kJWS, want: fields{"Vectors.len()": "3", "Vectors[0].Alg": "RS256", "Vectors[0].Kid": "key_xxxxx", "Vectors[0].Payload": "hello world", "Vectors[1].Kid": "", "Vectors[2].Payload": "hello world 😀 வணக்கம்"}},
	// The sealed form of a /v4 request body; replies come in the same form.
	{file: "jwt/jwt_s2s_jwe_json_envelope.json", kind: kSealed, call: "create session", wantErr: checkout.ErrEnvelope, want: fields{"Header": "hbGciOiJIUzI1NiIsInR5cCI6Ikp", "IV": "iIsInR5c", "Tag": "2QT4fwpMeJf36POk6y"}},
	{file: "jwt/jwt_step1_plain_session_payload.json", kind: kSessionRequest, want: fields{"OrderID": "testing-order-one", "Amount": "1.0", "Action": "paymentPage", "CustomerID": "testing-customer-one", "PaymentPageClientID": "hdfcmaster", "FirstName": "John", "LastName": "wick"}},
	{file: "jwt/jwt_step3_jws_json_envelope.json", kind: kOther, reason: "the signed inner layer of a sealed /v4 request (JWS JSON, placeholder values): the SDK writes it inside WithJWE and never reads one", want: fields{"[header]": "eyJhbGciOiJIUz", "[signature]": "SflKxwRJSMeKKF2QT4fwpMeJf36POk6"}},
	{file: "jwt/v4_order_status_response_jwe_json.json", kind: kSealed, call: "get order", wantErr: checkout.ErrEnvelope, want: fields{"Header": "eyJhbGciOiJSU02R0NNIiwia2lkIjoia2V5hMWM4ZDY2Yjc4MzFhM2VlIn0", "Tag": "YZTbFPOU3_WZigM70M6Srw", "JWT": ""}},
	{file: "jwt/v4_refund_response_jwe_json.json", kind: kSealed, call: "refund", wantErr: checkout.ErrEnvelope, want: fields{"Header": "eyJhbGciOiJSU0dkjfjdfhfsdfsdY5MjRiMGY4MDc4MzI4MzQwOGE1NDJmIn0", "EncryptedPayload": "ksdfdshk9dfdjsfsdfjsdsdhfhfhjsdhf", "Tag": "9YD4q-AaM4xYGMHz5dlarQ"}},
	{file: "jwt/v4_session_response_jwe_json.json", kind: kSealed, call: "create session", wantErr: checkout.ErrEnvelope, want: fields{"Header": "eyJhbGciOiJSU0EtT0FFUC0yNTYiLCJlbmMiOiJBMjU2R0NNIiwia2lkIjoia2V5XzIyMmNkZWY1Yzk4MzQ3Y2M5NjdkMTkwYzZlMjc2NmEzIn0", "Tag": "U3Wr---JYnerFskWqrKiNg", "JWT": ""}},
	{file: "jwt/webhook_jwt_envelope_TRUNCATED.json", kind: kWebhookJWT, negative: true, wantErr: webhook.ErrEncrypted, want: fields{"Alg": "RSA-OAEP-256", "Enc": "A256GCM"}},

	// orders/: order create, status and update replies.
	{file: "orders/order_create_response.json", kind: kOrder, want: fields{"Status": "CREATED", "StatusID": "1", "ID": "ord_e294a26e66ad4336a992ceab81ad704c", "OrderID": "14183944763", "PaymentLinks.Web": "https://api.juspay.in/merchant/pay/ord_e294a26e66ad4336a992ceab81ad704c"}},
	{file: "orders/order_create_response_with_client_auth_token.json", kind: kOrder, want: fields{"Status": "NEW", "StatusID": "10", "ID": "ordeu_8bddad1e3b9c85eab3db4528575c01b", "OrderID": "14183944763", "ClientAuthToken": "tkn_753275c49a44a1a313eb2567f2fd6b"}},
	{file: "orders/order_create_upi_deep_link_response.json", kind: kOrder, want: fields{"Status": "NEW", "StatusID": "10", "ID": "ordeh_5d4f1f5d2135453aadd08703297c0c2b", "OrderID": "orderIdIs67267", "PaymentLinks.Web": "https://sandbox.juspay.in/orders/ordeh_5d4f1f5d2135453aadd08703297c0c2b/payment-page", "ClientAuthToken": "tkn_af91a58f472c419b97ab10fe0f259020",
		"DeepLink": "upi://pay?tr=mandate_juspay-orderIdIs67267-1&mc=5816&pa=STAGEONLINE@ybl&pn=Stage&am=2.00&cu=INR", "Base64EncodedQR": "",
		"Amount": "2.00", "AmountRefunded": "0.00", "Refunded": "false", "Currency": "INR", "CustomerID": "cth_nfhDAjJf8HmnZ1AK8",
		"CustomerEmail": "ghge@gmail.com", "CustomerPhone": "9197079735", "MerchantID": "mandate_juspay", "ReturnURL": "", "ProductID": "",
		"DateCreated": "2023-12-15T10:54:52Z", "OrderExpiry": "2023-12-15T11:09:52Z", "UDF10": ""}},
	{file: "orders/order_create_upi_qr_response.json", kind: kOrder, want: fields{"Status": "NEW", "StatusID": "10", "ID": "ordeh_fab5fc85809d45798153a02e4ee8000c", "OrderID": "HD-1707740261", "ClientAuthToken": "tkn_b25bae8cd5cc4f4c9ec28b5a5ffb2db5",
		"Base64EncodedQR": "qr-image-in-bas64-encoded-for,at", "DeepLink": "upi://pay?tr=mandate_juspay-orderIdIs67267-1&mc=5816&pa=STAGEONLINE@ybl&pn=Stage&am=2.00&cu=INR",
		"Amount": "1.00", "Currency": "INR", "CustomerID": "cth_w2gbGjGi8BUkLgCo", "CustomerPhone": "7093125824", "MerchantID": "azharamin",
		"ProductID": "5", "ReturnURL": "http://www.google.com/", "UDF10": "RiderQR", "DateCreated": "2024-02-12T07:44:57.150265Z"}},
	{file: "orders/order_status_response_card.json", kind: kOrderStatus, negative: true},
	{file: "orders/order_status_response_cod.json", kind: kOrderStatus, want: fields{"OrderID": "1690960292", "ID": "ordeh_9b821b4bb49a46a392ab2bf59b2f4a71", "Status": "COD_INITIATED", "StatusID": "29", "Amount": "100", "PaymentMethodType": "CASH", "TxnDetail.Gateway": "CASH", "TxnDetail.TxnID": "ms-1690960292-1", "PaymentGatewayResponse.RespMessage": "COD initiated successfully", "IsPaid()": "false"}},
	{file: "orders/order_status_response_nb.json", kind: kOrderStatus, want: fields{"OrderID": "JPAYNEW032", "Status": "CHARGED", "StatusID": "21", "Amount": "9000", "PaymentMethodType": "NB", "PaymentMethod": "NB_HDFC", "TxnDetail.Gateway": "PAYU", "TxnDetail.TxnID": "merchantId-JPAYNEW032-1", "IsPaid()": "true"}},
	{file: "orders/order_status_response_upi.json", kind: kOrderStatus, negative: true},
	{file: "orders/order_status_response_wallet.json", kind: kOrderStatus, want: fields{"OrderID": "145678234", "Status": "CHARGED", "StatusID": "21", "Amount": "1", "PaymentMethodType": "WALLET", "PaymentMethod": "GOOGLEPAY", "TxnDetail.Gateway": "PAYTM_V2", "Refunds[0].UniqueRequestID": "refund_1590649567", "Refunds[0].Status": "SUCCESS", "Refunds[0].Amount": "1"}},
	{file: "orders/order_status_v4_jwt_response.json", kind: kSealed, call: "get order", wantErr: checkout.ErrEnvelope, want: fields{"Header": "", "EncryptedPayload": "", "JWT.len()": "240"}},
	{file: "orders/order_txn_upi_intent_mandate_response.json", kind: kOther, reason: "the reply of POST /txns (an order and its first transaction in one call), which the SDK does not make", want: fields{"[order_id]": "o_1698225298", "[status]": "PENDING_VBV", "[txn_id]": "mid-o_1698225298-1"}},
	{file: "orders/order_update_response.json", kind: kOrderStatus, want: fields{"OrderID": "JPAYNEW035", "ID": "ordeh_4b9501d714624eretry677i", "Status": "NEW", "StatusID": "10", "Amount": "90"}},
	{file: "orders/return_url_redirect_example.txt", kind: kReturnURL, wantErr: checkout.ErrReturnSignatureMismatch, want: fields{"Query[order_id][0]": "order_id_007", "Query[status][0]": "CHARGED", "Query[status_id][0]": "21", "Query[signature_algorithm][0]": "HMAC-SHA256"}},

	// payment_filter/: payment filters, alone (the signed Payment Page
	// orderDetails carry the same payment_filter) or in session bodies.
	{file: "payment_filter/orderdetails_payment_filter_grey_out_wallet_with_display_message.json", kind: kFilter, want: fields{"AllowDefaultOptions": "true", "Options[0].PaymentMethodType": "WALLET", "Options[0].Enable": "false", "Options[0].PaymentMethods[0]": "LAZYPAY,SIMPL", "Options[0].Display": "true"}},
	{file: "payment_filter/orderdetails_payment_filter_hide_card.json", kind: kFilter, want: fields{"AllowDefaultOptions": "true", "Options[0].PaymentMethodType": "CARD", "Options[0].Enable": "false"}},
	{file: "payment_filter/orderdetails_payment_filter_hide_card_bin_range.json", kind: kFilter, want: fields{"AllowDefaultOptions": "true", "Options[0].PaymentMethodType": "CARD", "Options[0].Enable": "true", "Options[0].CardFilters[0].Enable": "false", "Options[0].CardFilters[0].CardBins[0].From": "459000", "Options[0].CardFilters[0].CardBins[0].To": "460000"}},
	{file: "payment_filter/orderdetails_payment_filter_hide_cash.json", kind: kFilter, want: fields{"AllowDefaultOptions": "true", "Options[0].PaymentMethodType": "CASH", "Options[0].Enable": "false"}},
	{file: "payment_filter/orderdetails_payment_filter_hide_credit_cards.json", kind: kFilter, want: fields{"AllowDefaultOptions": "true", "Options[0].PaymentMethodType": "CARD", "Options[0].Enable": "true", "Options[0].CardFilters[0].Enable": "false", "Options[0].CardFilters[0].CardTypes[0]": "CREDIT"}},
	{file: "payment_filter/orderdetails_payment_filter_hide_netbanking.json", kind: kFilter, want: fields{"AllowDefaultOptions": "true", "Options[0].PaymentMethodType": "NB", "Options[0].Enable": "false"}},
	{file: "payment_filter/orderdetails_payment_filter_hide_upi.json", kind: kFilter, want: fields{"AllowDefaultOptions": "true", "Options[0].PaymentMethodType": "UPI", "Options[0].Enable": "false"}},
	// A WALLET option nested in cardFilters, as published: it decodes and
	// Validate names it.
	{file: "payment_filter/orderdetails_payment_filter_hide_visa_debit_sbi_MALFORMED.json", kind: kFilter, negative: true, problem: "payment_filter.options[0].cardFilters[1]", want: fields{"Options[0].PaymentMethodType": "CARD", "Options[0].CardFilters[0].CardBrands[0]": "VISA", "Options[0].CardFilters[0].CardTypes[0]": "DEBIT", "Options[0].CardFilters[0].CardBanks[0]": "SBI"}},
	{file: "payment_filter/orderdetails_payment_filter_hide_wallets.json", kind: kFilter, want: fields{"AllowDefaultOptions": "true", "Options[0].PaymentMethodType": "WALLET", "Options[0].Enable": "false"}},
	{file: "payment_filter/orderdetails_payment_filter_only_card.json", kind: kFilter, want: fields{"AllowDefaultOptions": "false", "Options[0].PaymentMethodType": "CARD", "Options[0].Enable": "true"}},
	{file: "payment_filter/orderdetails_payment_filter_only_netbanking.json", kind: kFilter, want: fields{"AllowDefaultOptions": "false", "Options[0].PaymentMethodType": "NB", "Options[0].Enable": "true"}},
	{file: "payment_filter/orderdetails_payment_filter_only_wallet.json", kind: kFilter, want: fields{"AllowDefaultOptions": "false", "Options[0].PaymentMethodType": "WALLET", "Options[0].Enable": "true"}},
	{file: "payment_filter/orderdetails_sample_payload_hide_lazypay_simpl.json", kind: kFilter, want: fields{"AllowDefaultOptions": "true", "Options[0].PaymentMethodType": "WALLET", "Options[0].Enable": "false", "Options[0].PaymentMethods[0]": "LAZYPAY"}},
	{file: "payment_filter/process_payload_signed_orderDetails_with_payment_filter.json", kind: kSDKPayload, negative: true},
	{file: "payment_filter/schema_CardFilter.purescript.txt", kind: kSchema, want: fields{"Keys.len()": "6", "Keys[1]": "cardBins"}},
	{file: "payment_filter/schema_EmiFilter.purescript.txt", kind: kSchema, want: fields{"Keys.len()": "4", "Keys[3]": "showOnlyEmi"}},
	{file: "payment_filter/schema_EmiSubFilter.purescript.txt", kind: kSchema, want: fields{"Keys.len()": "9", "Keys[5]": "issuerFilter"}},
	{file: "payment_filter/schema_PaymentFilterPayload.purescript.txt", kind: kSchema, want: fields{"Keys.len()": "3", "Keys[2]": "emiOptions"}},
	{file: "payment_filter/schema_PaymentMethodFilter.purescript.txt", kind: kSchema, want: fields{"Keys.len()": "7", "Keys[6]": "displayMessage"}},
	{file: "payment_filter/schema_UPIFilter.purescript.txt", kind: kSchema, want: fields{"Keys.len()": "2", "Keys[0]": "upiType"}},
	{file: "payment_filter/session_payment_filter_hide_card.body.json", kind: kSessionRequest, want: fields{"OrderID": "testing-order-one", "Amount": "1.0", "PaymentFilter.AllowDefaultOptions": "true", "PaymentFilter.Options[0].PaymentMethodType": "CARD", "PaymentFilter.Options[0].Enable": "false"}},
	{file: "payment_filter/session_payment_filter_hide_card_bin_range.body.json", kind: kSessionRequest, want: fields{"OrderID": "testing-order-one", "PaymentFilter.Options[0].PaymentMethodType": "CARD", "PaymentFilter.Options[0].CardFilters[0].Enable": "false", "PaymentFilter.Options[0].CardFilters[0].CardBins[0].From": "459000", "PaymentFilter.Options[0].CardFilters[0].CardBins[0].To": "460000"}},
	{file: "payment_filter/session_payment_filter_hide_cash.body.json", kind: kSessionRequest, want: fields{"OrderID": "testing-order-one", "PaymentFilter.Options[0].PaymentMethodType": "CASH", "PaymentFilter.Options[0].Enable": "false"}},
	{file: "payment_filter/session_payment_filter_hide_credit_cards.body.json", kind: kSessionRequest, want: fields{"OrderID": "testing-order-one", "PaymentFilter.Options[0].PaymentMethodType": "CARD", "PaymentFilter.Options[0].CardFilters[0].Enable": "false", "PaymentFilter.Options[0].CardFilters[0].CardTypes[0]": "CREDIT"}},
	{file: "payment_filter/session_payment_filter_hide_netbanking.body.json", kind: kSessionRequest, want: fields{"OrderID": "testing-order-one", "PaymentFilter.Options[0].PaymentMethodType": "NB", "PaymentFilter.Options[0].Enable": "false"}},
	{file: "payment_filter/session_payment_filter_hide_netbanking_bank_NB_HDFC.fragment.body.json", kind: kSessionRequest, want: fields{"OrderID": "jp_1716374798", "Amount": "10.0", "PaymentFilter.Options[0].PaymentMethodType": "NB", "PaymentFilter.Options[0].Enable": "false", "PaymentFilter.Options[0].PaymentMethods[0]": "NB_HDFC"}},
	{file: "payment_filter/session_payment_filter_hide_specific_upi_collect_handles_and_intent_apps.body.json", kind: kSessionRequest, want: fields{"OrderID": "testing-order-one", "PaymentFilter.Options[0].PaymentMethodType": "UPI", "PaymentFilter.Options[0].UPIFilters[0].UPIType": "COLLECT", "PaymentFilter.Options[0].UPIFilters[0].UPIMethods[0]": "@ybl", "PaymentFilter.Options[0].UPIFilters[1].UPIType": "INTENT"}},
	{file: "payment_filter/session_payment_filter_hide_specific_wallets.body.json", kind: kSessionRequest, want: fields{"OrderID": "testing-order-one", "PaymentFilter.Options[0].PaymentMethodType": "WALLET", "PaymentFilter.Options[0].Enable": "false", "PaymentFilter.Options[0].PaymentMethods[0]": "LAZYPAY,SIMPL"}},
	{file: "payment_filter/session_payment_filter_hide_upi.body.json", kind: kSessionRequest, want: fields{"OrderID": "testing-order-one", "PaymentFilter.Options[0].PaymentMethodType": "UPI", "PaymentFilter.Options[0].Enable": "false"}},
	{file: "payment_filter/session_payment_filter_hide_visa.fragment.body.json", kind: kSessionRequest, want: fields{"OrderID": "jp_1716372859", "PaymentFilter.Options[0].PaymentMethodType": "CARD", "PaymentFilter.Options[0].CardFilters[0].Enable": "false", "PaymentFilter.Options[0].CardFilters[0].CardBrands[0]": "VISA"}},
	{file: "payment_filter/session_payment_filter_hide_visa_credit.fragment.body.json", kind: kSessionRequest, want: fields{"OrderID": "jp_1716373008", "PaymentFilter.Options[0].CardFilters[0].Enable": "false", "PaymentFilter.Options[0].CardFilters[0].CardBrands[0]": "VISA", "PaymentFilter.Options[0].CardFilters[0].CardTypes[0]": "CREDIT"}},
	{file: "payment_filter/session_payment_filter_hide_wallets.body.json", kind: kSessionRequest, want: fields{"OrderID": "testing-order-one", "PaymentFilter.Options[0].PaymentMethodType": "WALLET", "PaymentFilter.Options[0].Enable": "false"}},
	{file: "payment_filter/session_payment_filter_only_card.fragment.body.json", kind: kSessionRequest, want: fields{"OrderID": "testing-order-one", "PaymentFilter.AllowDefaultOptions": "false", "PaymentFilter.Options[0].PaymentMethodType": "CARD", "PaymentFilter.Options[0].Enable": "true"}},
	{file: "payment_filter/session_payment_filter_only_credit_cards.fragment.body.json", kind: kSessionRequest, want: fields{"OrderID": "jp_1716371837", "PaymentFilter.AllowDefaultOptions": "false", "PaymentFilter.Options[0].CardFilters[0].Enable": "true", "PaymentFilter.Options[0].CardFilters[0].CardTypes[0]": "CREDIT"}},
	{file: "payment_filter/session_payment_filter_only_netbanking.fragment.body.json", kind: kSessionRequest, want: fields{"OrderID": "jp_1716374635", "PaymentFilter.AllowDefaultOptions": "false", "PaymentFilter.Options[0].PaymentMethodType": "NB", "PaymentFilter.Options[0].Enable": "true"}},
	{file: "payment_filter/session_payment_filter_only_netbanking_bank_NB_HDFC.fragment.body.json", kind: kSessionRequest, want: fields{"OrderID": "jp_1716374767", "PaymentFilter.AllowDefaultOptions": "false", "PaymentFilter.Options[0].PaymentMethodType": "NB", "PaymentFilter.Options[0].PaymentMethods[0]": "NB_HDFC"}},
	{file: "payment_filter/session_payment_filter_only_upi.body.json", kind: kSessionRequest, want: fields{"OrderID": "testing-order-one", "PaymentFilter.AllowDefaultOptions": "false", "PaymentFilter.Options[0].PaymentMethodType": "UPI", "PaymentFilter.Options[0].Enable": "true"}},
	{file: "payment_filter/session_payment_filter_only_visa_credit_cards.fragment.body.json", kind: kSessionRequest, want: fields{"OrderID": "jp_1716370897", "PaymentFilter.Options[0].CardFilters[0].Enable": "true", "PaymentFilter.Options[0].CardFilters[0].CardBrands[0]": "VISA", "PaymentFilter.Options[0].CardFilters[0].CardTypes[0]": "CREDIT"}},
	{file: "payment_filter/session_payment_filter_only_visa_credit_platinum.fragment.body.json", kind: kSessionRequest, want: fields{"OrderID": "jp_1716372325", "PaymentFilter.Options[0].CardFilters[0].CardBrands[0]": "VISA", "PaymentFilter.Options[0].CardFilters[0].CardTypes[0]": "CREDIT", "PaymentFilter.Options[0].CardFilters[0].CardSubTypes[0]": "PLATINUM"}},
	{file: "payment_filter/session_payment_filter_only_visa_credit_platinum_icici.fragment.body.json", kind: kSessionRequest, want: fields{"OrderID": "jp_1716372580", "PaymentFilter.Options[0].CardFilters[0].CardBrands[0]": "VISA", "PaymentFilter.Options[0].CardFilters[0].CardSubTypes[0]": "PLATINUM", "PaymentFilter.Options[0].CardFilters[0].CardBanks[0]": "ICICI"}},

	// payment_links/: sessions that return a payment link.
	{file: "payment_links/session_payment_link_200_standard_link.json", kind: kSession, negative: true},
	{file: "payment_links/session_payment_link_alt_request.body.json", kind: kSessionRequest, want: fields{"OrderID": "order_dummy_1", "Amount": "100", "PaymentPageClientID": "picasso", "PaymentFilter.Options[0].PaymentMethodType": "UPI", "GatewayReferenceID": "payu_test", "Extra[mobile_country_code]": "+91", "UDF1": "udf1-dummy", "Currency": "INR"}},
	{file: "payment_links/session_payment_link_new_request.body.json", kind: kSessionRequest, want: fields{"OrderID": "order_dummy_1", "Amount": "100", "Mandate.Option": "REQUIRED", "Mandate.StartDate": "2023-12-28T12:53:36Z", "GatewayReferenceID": "payu_test", "UDF10": "udf10-dummy"}},
	{file: "payment_links/session_payment_link_new_response.json", kind: kSession, negative: true},
	{file: "payment_links/session_payment_link_request.body.json", kind: kSessionRequest, want: fields{"OrderID": "order_dummy_1", "Amount": "100", "Mandate.Option": "REQUIRED", "Mandate.EndDate": "2024-12-01T00:00:00Z", "GatewayReferenceID": "payu_test"}},
	{file: "payment_links/session_payment_link_response.json", kind: kSession, negative: true},
	{file: "payment_links/session_payment_link_source_object_PAYMENT_LINK.body.json", kind: kSessionRequest, want: fields{"OrderID": "order_dummy_1", "Amount": "100", "GatewayReferenceID": "payu_test", "Extra[source_object]": "PAYMENT_LINK", "Extra[send_whatsapp]": "false"}},
	{file: "payment_links/session_payment_link_source_object_PAYMENT_LINK_response.json", kind: kSession, negative: true},

	// product_summary/: the summary array, alone and in a session body.
	{file: "product_summary/product_summary_case1_toggleimage_lowercase_and_images.json", kind: kSummary, want: fields{"len()": "3", "[0][0].Kind()": "image", "[0][1].Text": "Amount to pay", "[0][2].FontType": "bold"}},
	{file: "product_summary/product_summary_case2_toggleImage_camelcase_flight.json", kind: kSummary, want: fields{"len()": "16", "[0][0].Kind()": "space", "[1][0].Text": "Bangalore", "[1][0].TextSize": "18", "[1][0].Color": "#FFFFFF"}},
	{file: "product_summary/product_summary_case3_bus_ticket_background_space_width.json", kind: kSummary, want: fields{"len()": "12", "[1][0].Weight": "1", "[1][1].Text": "Bus Name VRL No."}},
	{file: "product_summary/session_request_product_summary.body.json", kind: kSessionRequest, want: fields{"OrderID": "unique_order_id", "Amount": "1.00", "ProductSummary.len()": "9", "ProductSummary[0][0].Text": "Amount Entered :", "ProductSummary[0][2].FontType": "Bold"}},

	// refunds/: a transaction-level and an instant refund (one Refund), and
	// an order-level refund (the order).
	{file: "refunds/refund_by_txn_id_response.json", kind: kRefund, want: fields{"UniqueRequestID": "refund_122_3472", "TxnID": "merchant_success-JP1636706983-2", "OrderID": "JP1636706983", "Status": "PENDING", "Amount": "1", "RefundType": "STANDARD", "Gateway": "RAZORPAY", "SentToGateway": "false", "Created": "2021-10-11T08:52:31Z"}},
	{file: "refunds/refund_instant_response.json", kind: kRefund, want: fields{"UniqueRequestID": "paytmv2_12231723_50", "TxnID": "merchantid-ord_123-1", "OrderID": "ord_123", "Status": "PENDING", "RefundType": "INSTANT", "RefundSource": "YESBANK_VISADIRECT", "Gateway": "MORPHEUS", "SentToGateway": "true"}},
	{file: "refunds/refund_order_response.json", kind: kOrderStatus, want: fields{"OrderID": "JP1636474794", "Status": "CHARGED", "Amount": "1", "TxnDetail.Gateway": "RAZORPAY", "Refunds[0].UniqueRequestID": "TEST1637681731", "Refunds[0].Status": "PENDING", "Refunds[0].Amount": "1", "Card.Brand": "VISA"}},

	// session/: session request bodies and replies.
	{file: "session/session_request_action_paymentManagement.body.json", kind: kSessionRequest, want: fields{"OrderID": "", "Action": "paymentManagement", "CustomerID": "dummyCustId", "PaymentPageClientID": "<YOUR_CLIENT_ID>"}},
	{file: "session/session_request_action_paymentPage.body.json", kind: kSessionRequest, want: fields{"OrderID": "yourUniqueOrderId", "Amount": "10.00", "Action": "paymentPage", "CustomerID": "dummyCustId"}},
	{file: "session/session_request_action_quickPay.body.json", kind: kSessionRequest, want: fields{"OrderID": "yourUniqueOrderId", "Amount": "10.00", "Action": "quickPay", "CustomerID": "dummyCustId"}},
	{file: "session/session_request_basic.body.json", kind: kSessionRequest, want: fields{"OrderID": "testing-order-one", "Amount": "1.0", "ReturnURL": "https://shop.merchant.com", "Extra[billing_address_first_name]": "John"}},
	{file: "session/session_request_basic_billing_address.json", kind: kSessionRequest, want: fields{"OrderID": "testing-order-one", "PaymentPageClientID": "yourClientId", "Extra[billing_address_last_name]": "wick"}},
	{file: "session/session_request_enach_mandate_required.body.json", kind: kSessionRequest, want: fields{"OrderID": "yourUniqueOrderId", "Action": "enach", "Mandate.Option": "REQUIRED", "Mandate.MaxAmount": "1000.00", "Mandate.StartDate": "2022-02-09T15:27:22Z", "Extra[service]": "in.juspay.ec"}},
	{file: "session/session_request_gateway_reference_id.json", kind: kSessionRequest, want: fields{"OrderID": "testing-order-one", "GatewayReferenceID": "payu_test", "FirstName": "John"}},
	{file: "session/session_request_get_upi_deep_links.json", kind: kSessionRequest, want: fields{"OrderID": "testing-order-one", "Amount": "1.0", "PaymentPageClientID": "yourClientId", "UPIDeepLinks": "true"}},
	{file: "session/session_request_mandate_OPTIONAL.body.json", kind: kSessionRequest, want: fields{"OrderID": "yourUniqueOrderId", "Mandate.Option": "OPTIONAL", "Mandate.MaxAmount": "1000.00", "Mandate.EndDate": "2022-03-02T15:27:07Z"}},
	{file: "session/session_request_mandate_REQUIRED.body.json", kind: kSessionRequest, want: fields{"OrderID": "yourUniqueOrderId", "Mandate.Option": "REQUIRED", "Mandate.MaxAmount": "1000.00", "Mandate.StartDate": "2022-02-09T15:27:22Z"}},
	{file: "session/session_request_payment_management_minimal.body.json", kind: kSessionRequest, want: fields{"Action": "paymentManagement", "CustomerID": "customer", "PaymentPageClientID": "clientId", "CustomerEmail": ""}},
	{file: "session/session_request_sandbox_with_x_customerid.body.json", kind: kSessionRequest, want: fields{"OrderID": " testing-order-one", "Amount": "10.0", "Currency": "INR"}},
	{file: "session/session_request_with_emiOptions_and_gateway_ref.json", kind: kSessionRequest, want: fields{"OrderID": "testing-order-one", "GatewayReferenceID": "payu_test", "PaymentFilter.AllowDefaultOptions": "true", "PaymentFilter.EMIOptions.StandardEMI.Enable": "true"}},
	{file: "session/session_response_basic.json", kind: kSession, want: fields{"Status": "NEW", "ID": "ordeh_xxxxxxxxxxxxxxxxxxxx", "OrderID": "testing-order-one", "PaymentLinks.Web": "https://api.juspay.in/orders/ordeh_xxxxxxxxxxxxxxxxxxxx/payment-page"}},
	{file: "session/session_response_enach_mandate.json", kind: kSession, want: fields{"Status": "NEW", "ID": "ordeh_7d32b2e428ba423f9d0ecf9575b23759", "OrderID": "yourUniqueOrderId", "PaymentLinks.Expiry": "2023-10-26T08:27:07Z"}},
	{file: "session/session_response_first_last_name.json", kind: kSession, want: fields{"Status": "NEW", "OrderID": "testing-order-one", "PaymentLinks.Web": "https://api.juspay.in/orders/ordeh_xxxxxxxxxxxxxxxxxxxx/payment-page"}},
	{file: "session/session_response_hdfc_sample.json", kind: kSession, want: fields{"Status": "NEW", "OrderID": "testing-order-one", "PaymentLinks.Web": "https://smartgatewayuat.hdfcbank.com/merchant/ipay/ordeh_57dfd768bb7d4896bc042y0b90bc9ad77/payment-page"}},
	{file: "session/session_response_sandbox_TRUNCATED.json", kind: kSession, negative: true},

	// webhooks/: events and their typed content; the payv3 samples nest
	// content as the others do, but two are not JSON (unquoted keys, an
	// extra brace) and older ones send card as an object, amounts as
	// numbers and booleans as "true".
	{file: "webhooks/payv3_webhook_mandatecreated.json.txt", kind: kEvent, event: webhook.MandateCreated, content: "mandate", want: fields{"Event.ID": "evt_V2_a2f864be94fb4fde88cd1056cbf88beb", "Event.DateCreated": "2021-12-18T10:15:35Z", "Mandate.MandateID": "eBWQNiQgeG7fdrXPPXtVbL", "Mandate.Status": "CREATED", "Mandate.OrderID": "1631719633", "Mandate.MaxAmount": "399", "Mandate.RevokableByCustomer": "true", "Mandate.ActivatedAt": "2020-04-18T10:16:02Z"}},
	{file: "webhooks/payv3_webhook_notificationsuccess.json.txt", kind: kEvent, event: webhook.NotificationSucceeded, content: "notification", want: fields{"Event.ID": "evt_V2_bc933a28ee5948be9f2939caac09d9", "Event.DateCreated": "2020-07-24T10:42:25Z", "Event.Status()": "SUCCESS", "Event.Kind()": "notification"}},
	{file: "webhooks/payv3_webhook_orderfailed.json.txt", kind: kEvent, event: webhook.OrderFailed, content: "order", want: fields{"Event.ID": "evt_hk0a9ccu6qwkcryg", "Order.OrderID": "3e0<HIDDEN>66b-85b2-ea55d1ba6496", "Order.Status": "AUTHORIZATION_FAILED", "Order.StatusID": "27", "Order.Amount": "600", "Order.Card.Brand": "MASTERCARD", "Order.Card.UsingSavedCard": "true", "Order.PaymentGatewayResponse.RespCode": "01"}},
	{file: "webhooks/payv3_webhook_ordermandate.json.txt", kind: kEvent, negative: true},
	{file: "webhooks/payv3_webhook_ordersuccess.json.txt", kind: kEvent, event: webhook.OrderSucceeded, content: "order", want: fields{"Event.ID": "evt_hk0a9ccu6qwkcryg", "Order.OrderID": "3e0411f7<HIDDEN>5b2-ea55d1ba6496", "Order.Status": "CHARGED", "Order.StatusID": "21", "Order.Amount": "600", "Order.IsPaid()": "true", "Order.Card.ISIN": "553227", "Order.AuthType": "THREE_DS"}},
	{file: "webhooks/payv3_webhook_txncreated.json.txt", kind: kEvent, negative: true},
	{file: "webhooks/webhook_auto_refund_failed.json", kind: kEvent, event: webhook.AutoRefundFailed, content: "order", want: fields{"Event.ID": "evt_V2_9380da4b07e74b6792f3fe23ed84a75f", "Order.OrderID": "sampleorder507", "Order.Status": "AUTO_REFUNDED", "Order.StatusID": "36", "Transaction.TxnID": "ms-sampleorder507-1", "Refund.UniqueRequestID": "ARghg65FGvyv", "Refund.Status": "FAILURE", "Refund.Amount": "1000", "Refund.InitiatedBy": "AUTO_REFUNDED", "Refund.ErrorCode": "105"}},
	{file: "webhooks/webhook_auto_refund_succeeded.json", kind: kEvent, event: webhook.AutoRefundSucceeded, content: "order", want: fields{"Event.ID": "evt_V2_c911db219e6845ce9c6b551b9e88cbc4", "Order.OrderID": "sample_ord_408", "Order.Status": "AUTO_REFUNDED", "Transaction.TxnID": "ipec-sample_ord_408-1", "Refund.UniqueRequestID": "ARumRQpjqqLcXTm6", "Refund.Status": "SUCCESS", "Refund.Amount": "8", "Refund.Ref": "rfnd_MOHfB6QJrn3i4K", "Refund.Metadata[speed_processed]": "normal"}},
	{file: "webhooks/webhook_auto_refunded_ec_headless.json", kind: kEvent, event: webhook.AutoRefundInitiated, content: "order", want: fields{"Event.ID": "evt_V2_37cb4fc7d18a446abecd0b8343965506", "Order.OrderID": "Ord_0529bJuv", "Order.Status": "AUTO_REFUNDED", "Order.PaymentMethodType": "WALLET", "Transaction.TxnID": "UD-Ord_0529bJuv-1", "Refund.UniqueRequestID": "AR7MMYZwyZWQUkUM", "Refund.Status": "MANUAL_REVIEW", "Refund.RefundSource": "CRED"}},
	{file: "webhooks/webhook_mandate_activated.json", kind: kEvent, event: webhook.MandateActivated, content: "mandate", want: fields{"Event.ID": "evt_V2_7c242ac8f082499f8398ab56ce603187", "Mandate.MandateID": "c1ZJDKT3YXUhxubgKhkom8", "Mandate.Status": "ACTIVE", "Mandate.OrderID": "ord_1692176519ms", "Mandate.MaxAmount": "100", "Mandate.Frequency": "ASPRESENTED", "Mandate.LastUpdated": "2023-08-16T09:02:33Z"}},
	{file: "webhooks/webhook_mandate_created.json", kind: kEvent, event: webhook.MandateCreated, content: "mandate", want: fields{"Event.ID": "evt_V2_14596cec6cd34c6380212cc3115030cb", "Mandate.MandateID": "c1ZJDKT3YXUhxubgKhkom8", "Mandate.Status": "CREATED", "Mandate.MandateType": "MANDATE", "Mandate.StartDate": "1692169687"}},
	{file: "webhooks/webhook_mandate_expired.json", kind: kEvent, event: webhook.MandateExpired, content: "mandate", want: fields{"Event.ID": "evt_V2_98b67d9bfe334c84a7d4971d932b9465", "Mandate.MandateID": "ii76ncZXa2tceXdeyCFqaM", "Mandate.Status": "EXPIRED", "Mandate.MaxAmount": "5000", "Mandate.MandateType": "EMANDATE"}},
	{file: "webhooks/webhook_mandate_failed.json", kind: kEvent, event: webhook.MandateFailed, content: "mandate", want: fields{"Event.ID": "evt_V2_5692cc60687042cc8a7efac8373894f7", "Mandate.MandateID": "pJuMzz3fWkQAmJrE9WXULe", "Mandate.Status": "FAILURE", "Mandate.OrderID": "ord_1692181139ms"}},
	{file: "webhooks/webhook_mandate_paused.json", kind: kEvent, event: webhook.MandatePaused, content: "mandate", want: fields{"Event.ID": "evt_V2_98b67d9bfe334c84a7d4971d932b9465", "Mandate.MandateID": "ii76ncZXa2tceXdeyCFqaM", "Mandate.Status": "PAUSED", "Mandate.OrderID": "sample_ord304"}},
	{file: "webhooks/webhook_notification_failed.json", kind: kEvent, event: webhook.NotificationFailed, content: "notification", want: fields{"Event.ID": "evt_V2_93ca6871b7fc4efcafe24ede6e25ecb7", "Event.Status()": "FAILURE", "Event.DateCreated": "2023-08-16T10:40:29Z"}},
	{file: "webhooks/webhook_notification_succeeded.json", kind: kEvent, event: webhook.NotificationSucceeded, content: "notification", want: fields{"Event.ID": "evt_V2_9380da4b07e74b6792f3fe23ed84a75f", "Event.Status()": "SUCCESS", "Event.DateCreated": "2023-08-10T10:48:09Z"}},
	{file: "webhooks/webhook_order_failed.json", kind: kEvent, event: webhook.OrderFailed, content: "order", want: fields{"Event.ID": "evt_V2_f139d51b776541bdbccf6cf49234bc8c", "Order.OrderID": "sample_ord_502", "Order.Status": "AUTHORIZATION_FAILED", "Order.StatusID": "27", "Order.IsPaid()": "false", "Transaction.Status": "AUTHORIZATION_FAILED"}},
	{file: "webhooks/webhook_order_failed_global.json", kind: kEvent, event: webhook.OrderFailed, content: "order", want: fields{"Event.ID": "evt_V2_65b486e859c242d898482c0e7ef1db14", "Order.OrderID": "137288-10-160866", "Order.Status": "AUTHENTICATION_FAILED", "Order.Amount": "9150", "Transaction.TxnID": "Merchant-137288-10-160866-1"}},
	{file: "webhooks/webhook_order_refund_failed.json", kind: kEvent, event: webhook.OrderRefundFailed, content: "order", want: fields{"Event.ID": "evt_V2_9380da4b07e74b6792f3fe23ed84a75f", "Order.OrderID": "sampleorder608", "Order.Status": "CHARGED", "Order.PaymentMethodType": "UPI", "Refund.UniqueRequestID": "ARghg65FGvyv", "Refund.Status": "FAILURE", "Refund.InitiatedBy": "API"}},
	{file: "webhooks/webhook_order_refunded.json", kind: kEvent, event: webhook.OrderRefunded, content: "order", want: fields{"Event.ID": "evt_V2_132b474fe46b4518a561ad1aa18b4e42", "Order.OrderID": "sample_ord_403", "Order.AmountRefunded": "5", "Refund.UniqueRequestID": "erf_b0c764a743c4221b", "Refund.Status": "SUCCESS", "Refund.Amount": "5", "Refund.Ref": "55430487"}},
	{file: "webhooks/webhook_order_succeeded.json", kind: kEvent, event: webhook.OrderSucceeded, content: "order", want: fields{"Event.ID": "evt_V2_b737837102414514ae0e9717a9f2664d", "Event.DateCreated": "2023-08-10T07:00:48Z", "Order.OrderID": "sample_ord_200", "Order.Status": "CHARGED", "Order.Amount": "1", "Order.IsPaid()": "true", "Transaction.TxnID": "ms-sample_ord_200-1", "Transaction.Gateway": "DUMMY"}},
	{file: "webhooks/webhook_order_succeeded_global.json", kind: kEvent, event: webhook.OrderSucceeded, content: "order", want: fields{"Event.ID": "evt_V2_3bec4e70e1984c6093c566754f929fee", "Order.OrderID": "1363516-10-1603306", "Order.Status": "CHARGED", "Order.Amount": "30413", "Order.PaymentMethodType": "WALLET"}},
	{file: "webhooks/webhook_order_succeeded_mandate.json", kind: kEvent, event: webhook.OrderSucceeded, content: "order", want: fields{"Event.ID": "evt_gsu1c0r7umcfrxeb", "Order.OrderID": "234823498237423894273498", "Order.PayerVPA": "9999999999@paytm", "Transaction.TxnObjectType": "EMANDATE_REGISTER", "Mandate.MandateID": "3XMEcS1z2212Gq7fbfVYbzj", "Mandate.MandateStatus": "ACTIVE", "Mandate.MaxAmount": "1000"}},
	{file: "webhooks/webhook_refund_initiate.json", kind: kEvent, event: webhook.RefundInitiated, content: "order", want: fields{"Event.ID": "evt_V2_6d18def52abc4810aaef89a91064b045", "Order.OrderID": "sample_ord_403", "Order.Status": "CHARGED", "Refund.UniqueRequestID": "erf_b0c764a743c4221b", "Refund.Status": "PENDING", "Refund.SentToGateway": "false", "Refund.RefundType": "STANDARD"}},
	{file: "webhooks/webhook_response_structure.json", kind: kEvent, negative: true},
	{file: "webhooks/webhook_sample_response_structure.json", kind: kEvent, negative: true},
	{file: "webhooks/webhook_txn_created.json", kind: kEvent, event: webhook.TxnCreated, content: "order", want: fields{"Event.ID": "evt_V2_324dc6e110914184a1c764923e14ccde", "Order.OrderID": "sample_ord_200", "Order.Status": "PENDING_VBV", "Order.StatusID": "23", "Transaction.TxnID": "ms-sample_ord_200-1", "Transaction.Status": "PENDING_VBV"}},
	{file: "webhooks/webhook_txn_failed.json", kind: kEvent, event: webhook.TxnFailed, content: "txn", want: fields{"Event.ID": "evt_V2_a0d045a5a93e4f29a72a937ebb0b154b", "Transaction.TxnID": "ms-sample_ord_502-1", "Transaction.OrderID": "sample_ord_502", "Transaction.Status": "AUTHORIZATION_FAILED", "Transaction.StatusID": "27", "Transaction.ErrorMessage": "Not sufficient funds", "Transaction.Gateway": "DUMMY", "Order": "<nil>"}},
}
