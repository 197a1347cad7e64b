extension OrderCheck {
    /// The rules of `order.json` on its own.
    mutating func order(_ json: JSONObject) {
        if let version = value(json, "schemaVersion", at: "", "number", required: true)?.numberValue, ![1, 2].contains(version.intValue) {
            error(
                "order-value", "schemaVersion", "schemaVersion is \(version), Wallet knows 1 (iOS 16) and 2 (iOS 17)",
                fix: "set schemaVersion to 1, or 2 when the order needs iOS 17")
        }
        let version = json["schemaVersion"]?.numberValue?.intValue ?? 1
        if let type = string(json, "orderTypeIdentifier", at: "", required: true), !type.hasPrefix("order.") {
            error(
                "order-identifier", "orderTypeIdentifier",
                "orderTypeIdentifier \"\(MessageText.cut(type))\" does not start with \"order.\"",
                fix: "use your Order Type ID (order.com.example…), the UID of its certificate")
        }
        if let identifier = string(json, "orderIdentifier", at: "", required: true), identifier.isEmpty {
            error(
                "order-identifier", "orderIdentifier", "orderIdentifier is empty",
                fix: "give the order an identifier unique within its type")
        }
        allowed(
            string(json, "orderType", at: "", required: true), Order.OrderType.known.map(\.rawValue), at: "orderType", what: "orderType")
        allowed(string(json, "status", at: "", required: true), Order.Status.known.map(\.rawValue), at: "status", what: "status")
        _ = string(json, "orderNumber", at: "")
        _ = string(json, "statusDescription", at: "")
        https(string(json, "orderManagementURL", at: "", required: true), at: "orderManagementURL")
        let created = date(string(json, "createdAt", at: "", required: true), at: "createdAt")
        let updated = date(string(json, "updatedAt", at: "", required: true), at: "updatedAt")
        if let created, let updated, updated < created {
            error(
                "order-date", "updatedAt",
                "updatedAt \(json["updatedAt"]!.stringValue!) is before createdAt \(json["createdAt"]!.stringValue!)",
                fix: "set updatedAt to the time of this version, at or after createdAt")
        }
        if let merchant = object(json, "merchant", at: "", required: true) { self.merchant(merchant) }
        if let customer = object(json, "customer", at: "") {
            for key in ["givenName", "familyName", "emailAddress", "phoneNumber", "organizationName"] {
                _ = string(customer, key, at: "customer")
            }
        }
        if let payment = object(
            json, "payment", at: "", required: version < 2, why: " (schema version 1, read by iOS 16, needs it; version 2 may leave it out)"
        ) {
            self.payment(payment)
        }
        for (path, item) in objects(json, "lineItems", at: "") { lineItem(item, at: path) }
        fulfillments(json)
        for (path, entry) in objects(json, "returns", at: "") {
            _ = string(entry, "returnIdentifier", at: path, required: true)
            _ = string(entry, "status", at: path, required: true)
            for key in ["initiatedAt", "dropOffBy"] { _ = date(string(entry, key, at: path), at: Self.join(path, key)) }
            for (itemPath, item) in objects(entry, "lineItems", at: path) { lineItem(item, at: itemPath) }
        }
        if let info = object(json, "returnInfo", at: "") {
            _ = date(string(info, "returnDeadline", at: "returnInfo"), at: "returnInfo.returnDeadline")
            for key in ["returnPolicyURL", "returnManagementURL"] { https(string(info, key, at: "returnInfo"), at: "returnInfo." + key) }
        }
        if let barcode = object(json, "barcode", at: "") { self.barcode(barcode, at: "barcode") }
        for (path, app) in objects(json, "associatedApplications", at: "") {
            _ = value(app, "storeIdentifier", at: path, "number", required: true)
        }
        webService(json)
        if let provider = object(json, "orderProvider", at: "") {
            _ = string(provider, "displayName", at: "orderProvider", required: true)
            https(string(provider, "url", at: "orderProvider"), at: "orderProvider.url")
        }
        allowed(
            string(json, "changeNotifications", at: ""), ["enabled", "disabled"], at: "changeNotifications", what: "changeNotifications")
        diagnostics += UnreadableValues.findings(in: .object(json), file: "order.json")
        for member in json where !Order.modelKeys.contains(member.key) {
            warning(
                "order-unknown-key", member.key, "\(member.key) is not a key of Apple's order schema; Wallet ignores it",
                fix: "check its spelling, or remove it")
        }
    }

    private mutating func merchant(_ merchant: JSONObject) {
        _ = string(merchant, "merchantIdentifier", at: "merchant", required: true)
        _ = string(merchant, "displayName", at: "merchant", required: true)
        https(string(merchant, "url", at: "merchant", required: true), at: "merchant.url")
        _ = string(merchant, "logo", at: "merchant")
        https(string(merchant, "businessChatURL", at: "merchant"), at: "merchant.businessChatURL")
    }

    private mutating func payment(_ payment: JSONObject) {
        if let total = object(payment, "total", at: "payment", required: true) { amount(total, at: "payment.total") }
        allowed(
            string(payment, "status", at: "payment"), Order.Payment.Status.known.map(\.rawValue), at: "payment.status",
            what: "payment status",
            severity: .warning)
        for (path, item) in objects(payment, "summaryItems", at: "payment") {
            _ = string(item, "label", at: path, required: true)
            if let value = object(item, "value", at: path, required: true) { amount(value, at: Self.join(path, "value")) }
        }
        paymentMethods(payment)
        for (path, transaction) in objects(payment, "transactions", at: "payment") {
            if let value = object(transaction, "amount", at: path, required: true) { amount(value, at: Self.join(path, "amount")) }
            allowed(
                string(transaction, "transactionType", at: path, required: true), Order.Transaction.Kind.known.map(\.rawValue),
                at: Self.join(path, "transactionType"), what: "transactionType")
            _ = date(string(transaction, "createdAt", at: path), at: Self.join(path, "createdAt"))
            if let method = object(transaction, "paymentMethod", at: path) {
                _ = string(method, "displayName", at: Self.join(path, "paymentMethod"), required: true)
            }
        }
    }

    /// `payment.paymentMethods`: Apple documents an array of strings, each a way the customer paid as they know it
    /// (`"Visa •••• 4242"`), in both schema versions (deprecated from version 2, where a transaction's `paymentMethod`
    /// object says it). An object with a `displayName`, the form Passmint wrote before, is not Apple's: a warning.
    private mutating func paymentMethods(_ payment: JSONObject) {
        guard let methods = value(payment, "paymentMethods", at: "payment", "array", required: false)?.arrayValue else { return }
        for (index, method) in methods.enumerated() {
            let path = "payment.paymentMethods[\(index)]"
            switch method {
            case .string:
                continue
            case .object(let object):
                let name = string(object, "displayName", at: path, required: true)
                warning(
                    "order-payment-method", path,
                    "\(path) is an object; Apple's order schema lists payment methods as strings, and Wallet may not show it",
                    fix: "write the payment method as a string: \"\(MessageText.cut(name ?? "Visa •••• 4242"))\"")
            default:
                error(
                    "order-type", path, "\(path) is \(method.typeName) \(Self.shown(method)), Wallet expects a string",
                    fix: "write the payment method as the customer knows it, e.g. \"Visa •••• 4242\"")
            }
        }
    }

    /// A `CurrencyAmount`: a number and an ISO 4217 code.
    mutating func amount(_ amount: JSONObject, at path: String) {
        _ = value(amount, "amount", at: path, "number", required: true)
        if let currency = string(amount, "currency", at: path, required: true),
            currency.utf8.count != 3 || !currency.utf8.allSatisfy({ (0x41...0x5A).contains($0) })
        {
            error(
                "order-currency", Self.join(path, "currency"), "currency \"\(MessageText.cut(currency))\" is not an ISO 4217 code",
                fix: "use three capital letters, e.g. EUR or USD")
        }
    }

    mutating func lineItem(_ item: JSONObject, at path: String) {
        _ = string(item, "title", at: path, required: true)
        if let quantity = value(item, "quantity", at: path, "number", required: true)?.numberValue, quantity.doubleValue < 0 {
            error("order-value", Self.join(path, "quantity"), "quantity is \(quantity)", fix: "a quantity is 0 or more")
        }
        _ = string(item, "image", at: path)
        if let price = object(item, "price", at: path) { amount(price, at: Self.join(path, "price")) }
    }

    mutating func barcode(_ barcode: JSONObject, at path: String) {
        _ = string(barcode, "message", at: path, required: true)
        allowed(
            string(barcode, "format", at: path, required: true), Order.Barcode.Format.known.map(\.rawValue), at: Self.join(path, "format"),
            what: "barcode format")
    }

    private mutating func webService(_ json: JSONObject) {
        let url = string(json, "webServiceURL", at: "")
        https(url, at: "webServiceURL")
        let token = string(
            json, "authenticationToken", at: "", required: url != nil, why: " (Wallet sends it to webServiceURL as AppleOrder <token>)")
        if let token, token.utf8.count < 16 {
            error(
                "order-token", "authenticationToken", "authenticationToken has \(token.utf8.count) characters, Wallet needs at least 16",
                fix: "use a random token of 16 characters or more")
        }
    }
}
