import Passmint

/// Registering and leaving (`register.*`, `unregister.*`) and the polls that show whether a registration exists.
extension ServiceCheckRun {
    /// `register.unauthorized`: a wrong token and none are refused with 401, and no registration is made.
    mutating func refusedRegistrations() async {
        let id = "register.unauthorized"
        let body = PushTokenBody(pushToken: pushToken).json
        let wrong = "wrong" + randomHex(12)
        guard let withWrong = await call(id, "register", .register, registrationPath(refusedDevice), token: wrong, body: body),
            let withNone = await call(id, "register", .register, registrationPath(refusedDevice), body: body)
        else { return }
        for exchange in [withWrong, withNone] where exchange.status != WalletWebService.Status.unauthorized {
            if (200..<300).contains(exchange.status) { toRemove.insert(refusedDevice) }
            fail(
                id, "a registration with a wrong token, or none, must be refused with \(WalletWebService.Status.unauthorized)", exchange,
                fix:
                    "compare the \(kind.authorizationScheme) token with the \(noun)'s authenticationToken before registering; answer 401 when it differs or is missing"
            )
            return
        }
        guard let poll = await call(id, "poll", .poll, pollPath(refusedDevice)) else { return }
        if listsTarget(poll) {
            toRemove.insert(refusedDevice)
            fail(
                id, "the refused registration was made anyway: the device's poll lists the \(noun)", poll,
                fix: "check the token before storing the registration, and store nothing when it is refused")
            return
        }
        pass(id, "a wrong token and no token were refused with 401, and no registration was made", withWrong)
    }

    /// `register.created`, `register.again`: 201 for the new registration, 200 when it is made again. False when the
    /// device could not register (the checks that need a registration are skipped).
    mutating func registration() async -> Bool {
        let body = PushTokenBody(pushToken: pushToken).json
        guard let first = await call("register.created", "register", .register, registrationPath(device), token: target.token, body: body)
        else { return false }
        if (200..<300).contains(first.status) { toRemove.insert(device) }
        if first.status == WalletWebService.Status.registered {
            pass("register.created", "a new registration answered \(WalletWebService.Status.registered)", first)
        } else {
            fail(
                "register.created", "a new registration must answer \(WalletWebService.Status.registered) Created", first,
                fix: first.status == WalletWebService.Status.unauthorized
                    ? "the service refused the \(noun)'s own token: check that it holds the \(noun) with this token"
                    : "answer 201 when the registration is new (200 only when the device was registered already)")
        }
        guard (200..<300).contains(first.status) else {
            for id in ["register.again", "register.no-push-token", "poll.list", "poll.since", "latest.ok", "unregister.ok"] {
                skip(id, "the device could not register")
            }
            return false
        }
        guard let again = await call("register.again", "register", .register, registrationPath(device), token: target.token, body: body)
        else { return true }
        judge(
            "register.again", again, ok: again.status == WalletWebService.Status.alreadyRegistered,
            passed: "registering again answered \(WalletWebService.Status.alreadyRegistered)",
            rule: "registering again must answer \(WalletWebService.Status.alreadyRegistered) OK",
            fix: "answer 200 when the device is already registered for the \(noun) (update its push token), not 201 or 304")
        return true
    }

    /// `register.no-push-token`: a body without `pushToken` is refused (a 4xx other than 401: the token is right).
    mutating func missingPushToken() async {
        let id = "register.no-push-token"
        guard let exchange = await call(id, "register", .register, registrationPath(device), token: target.token, body: [:]) else { return }
        judge(
            id, exchange, ok: (400..<500).contains(exchange.status) && exchange.status != WalletWebService.Status.unauthorized,
            passed: "a body without pushToken was refused with \(exchange.status)",
            rule: "a registration body without pushToken must be refused (400)",
            fix: "answer 400 when the body is not \(PushTokenBody.shape): a registration without a push token can never be pushed to")
    }

    /// `unregister.ok`, `unregister.poll`, `unregister.again`.
    mutating func unregistration() async {
        guard let first = await call("unregister.ok", "unregister", .unregister, registrationPath(device), token: target.token) else {
            return
        }
        judge(
            "unregister.ok", first, ok: first.status == WalletWebService.Status.unregistered,
            passed: "unregistering answered \(WalletWebService.Status.unregistered)",
            rule: "unregistering must answer \(WalletWebService.Status.unregistered) OK",
            fix: "delete the registration and answer 200")
        if let poll = await call("unregister.poll", "poll", .poll, pollPath(device)) {
            if listsTarget(poll) {
                fail(
                    "unregister.poll", "after unregistering, the device's poll still lists the \(noun)", poll,
                    fix: "delete the registration on DELETE, so the device is no longer told about the \(noun)")
            } else {
                toRemove.remove(device)
                pass("unregister.poll", "after unregistering, the poll lists nothing", poll)
            }
        }
        guard let again = await call("unregister.again", "unregister", .unregister, registrationPath(device), token: target.token) else {
            return
        }
        judge(
            "unregister.again", again,
            ok: again.status == WalletWebService.Status.unregistered || again.status == WalletWebService.Status.unauthorized,
            passed: "unregistering again answered \(again.status)",
            rule: "unregistering a device that is not registered must answer 200 or 401",
            fix: "answer 200 (nothing to delete) or 401, not \(again.status): devices retry a DELETE that fails otherwise")
    }
}
