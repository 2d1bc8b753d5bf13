// Package paymentfilter models payment locking: the payment_filter object of
// a session request, which chooses the payment instruments the hosted
// checkout shows, and carries the EMI filter of package emi.
//
// [Filter] is the model and its own fluent builder. [New] and [Only] return
// a *Filter, and each method changes that filter in place and returns it, so
// calls chain and a call on its own line works too:
//
//	paymentfilter.New().Hide(paymentfilter.Wallet)              // hide a whole type
//	paymentfilter.Only(paymentfilter.UPI)                       // show only UPI
//	paymentfilter.New().HideUPIHandles("@ybl").HideUPIApps("PHONEPE")
//	paymentfilter.New().HideCardTypes(paymentfilter.Credit)     // hide credit cards
//	paymentfilter.New().HideBINRanges(paymentfilter.BINRange{From: "459000", To: "460000"})
//	paymentfilter.New().HideMethods(paymentfilter.Wallet, "LAZYPAY", "SIMPL")
//	paymentfilter.New().EMI(emi.New().OnlyNoCost())             // EMI plans
//
// The value is ready as it is: it goes straight into a session request or a
// struct literal, and there is no finishing call:
//
//	checkout.SessionRequest{PaymentFilter: paymentfilter.New().Hide(paymentfilter.Wallet)}
//	paymentfilter.Filter{AllowDefaultOptions: true, EMIOptions: emi.New().OnlyNoCost()}
//
// The types are plain structs with the service's json keys: encoding/json
// writes and reads them. Decoding also takes the singular card keys of the
// service's field table (cardBrand for cardBrands…). A key the SDK does not
// model is dropped on decoding: a merchant who needs one sends the whole
// payment_filter in the session request's Extra, leaving PaymentFilter nil.
//
// # How the fluent calls compose
//
// A call on a nil *Filter starts from New(). Nothing is copied per call, and
// values are added as given (a code passed twice is sent twice, which the
// service takes). [Filter.Clone] gives an independent copy of a half-built
// filter to extend in two ways, or to hand to another goroutine.
//
// The calls keep one option block per payment method type (the service
// honours only the first block of a type) and merge each call into the
// block of its type where one block can say both: Only(Card) then
// HideCardTypes(Credit), HideMethods(Wallet, "A") then HideMethods(Wallet,
// "B"), HideUPIApps then HideUPIHandles. A call that one block cannot
// express together with an earlier one adds a second block of its type,
// never resolved silently: Hide(Wallet).Show(Wallet);
// Only(Wallet).HideMethods(Wallet, "PAYTM") (enable applies to the listed
// paymentMethods, so one WALLET block cannot show the type and hide one of
// its wallets: write New().Hide(the other types).HideMethods(Wallet,
// "PAYTM") instead); Hide(UPI).HideUPIApps("GPAY") (UPI filters need UPI
// enabled). The builder records nothing: a filter is its data, and
// [Filter.Validate] finds the conflict from the blocks, at the second
// block, saying what both do, the same for a chain, a struct literal or
// JSON:
//
//	payment_filter.options[1]: duplicate WALLET block (the first is options[0]): this one shows WALLET as a whole (enable: true, no paymentMethods), the first hides WALLET as a whole (enable: false, no paymentMethods); the service honours only the first block of a type, and one block cannot do both
//
// A card or UPI value that one filter of a block shows and another hides
// is a conflict too (HideUPIApps("GPAY") then ShowUPIApps("GPAY"), and the
// same for UPI handles, card types, card brands and BIN ranges), reported
// at the later filter. The problems of the [emi.Options] given to
// [Filter.EMI] are reported under "payment_filter.emiOptions".
//
// What a Show call adds depends on allowDefaultOptions, as the service
// reads it: after [Only] (false), only what enable: true entries select is
// displayed, so Only(Card).ShowCardTypes(Credit) shows credit cards and no
// other card; after [New] (true), every default option stays visible, so a
// Show call hides nothing and adds nothing the defaults do not show: it
// documents intent. For the same reason a Hide call after Only hides a type
// that is not shown anyway: package lint says so.
//
// [Filter.Validate], which the client calls before sending, reports every
// problem of the filter with its JSON path from "payment_filter", as a
// *[validation.Error]; package lint gives advice on values the service
// takes but that are probably mistakes.
package paymentfilter
