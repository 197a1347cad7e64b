import Passmint

/// The poll (`poll.*`): the list of changed documents, its tag, what it must not list.
extension ServiceCheckRun {
    /// `poll.unknown-device`: a device that never registered gets 204.
    mutating func unknownDevicePoll() async {
        let id = "poll.unknown-device"
        guard let exchange = await call(id, "poll", .poll, pollPath(unknownDevice)) else { return }
        if listsTarget(exchange) {
            fail(
                id, "a device that never registered was told about the \(noun)", exchange,
                fix: "list only the \(noun)s the device registered for")
        } else if exchange.status == WalletWebService.Status.noChanges || (200..<300).contains(exchange.status) {
            pass(id, "a device that never registered got nothing", exchange)
        } else {
            fail(
                id, "a device that never registered must get \(WalletWebService.Status.noChanges)", exchange,
                fix:
                    "answer 204 for a device with no registrations (Apple's 2012 sample answered 404; the reference lists only 200 and 204)"
            )
        }
    }

    /// `poll.list`: 200 with the protocol's body (``UpdatedList``, its tag a string) listing the document.
    mutating func firstPoll() async {
        let id = "poll.list"
        guard let exchange = await call(id, "poll", .poll, pollPath(device), times: options.repeatCount) else { return }
        tag = Self.tag(exchange, kind)
        guard exchange.status == WalletWebService.Status.updated else {
            fail(
                id, "the first poll of a registered device must answer \(WalletWebService.Status.updated) with the \(noun)", exchange,
                fix: "without \(kind.sinceParameter), list every \(noun) of the type the device is registered for")
            return
        }
        let example = String(decoding: UpdatedList(kind: kind, identifiers: [target.identifier], tag: "…").bytes, as: UTF8.self)
        let list: UpdatedList
        do {
            list = try UpdatedList(kind: kind, json: try JSONParser.value(exchange.body))
        } catch let error as WalletBodyError {
            fail(id, "the poll's body is not the protocol's: \(error.message)", exchange, fix: "answer \(example) (the tag a JSON string)")
            return
        } catch {
            fail(id, "the poll's body is not JSON", exchange, fix: "answer application/json \(example)")
            return
        }
        guard list.identifiers.contains(target.identifier) else {
            fail(id, "the poll does not list \(target.identifier)", exchange, fix: "list every \(noun) the device is registered for")
            return
        }
        pass(id, "the poll listed \(target.identifier) with the tag \"\(list.tag)\"", exchange)
    }

    /// The tag of a poll's answer, read leniently: a string, or a number's text.
    static func tag(_ exchange: DeviceExchange, _ kind: WalletWebService.Kind) -> String? {
        guard let value = (try? JSONParser.value(exchange.body))?[UpdatedList.tagKey(kind)] else { return nil }
        if let text = value.stringValue { return text }
        if case .number(let number) = value { return number.text }
        return nil
    }

    /// `poll.since` (or `poll.tag-encoding` when the tag holds characters a device encodes): the tag of the first poll,
    /// sent back, lists nothing (204).
    mutating func pollSinceTag() async {
        guard let tag else {
            skip("poll.since", "the first poll gave no tag")
            skip("poll.tag-encoding", "the first poll gave no tag")
            return
        }
        let encoded = WalletRoute.percentEncoded(tag)
        let id = encoded == tag ? "poll.since" : "poll.tag-encoding"
        guard let exchange = await call(id, "poll since", .poll, pollPath(device, since: tag), times: options.repeatCount) else { return }
        let listed = listsTarget(exchange)
        if encoded == tag {
            skip("poll.tag-encoding", "the tag \"\(tag)\" has no characters a device encodes")
        } else {
            pass("poll.since", "sent back encoded: see poll.tag-encoding")
        }
        if listed || !(200..<300).contains(exchange.status) {
            fail(
                id, "polling with the tag just returned must list nothing (\(WalletWebService.Status.noChanges))", exchange,
                fix: encoded == tag
                    ? "list only the \(noun)s changed after the tag in \(kind.sinceParameter)"
                    : "decode the percent-encoded \(kind.sinceParameter) (a device encodes + : and spaces) and compare it as the tag it was"
            )
        } else {
            pass(id, "the tag sent back (as \"\(encoded)\") listed nothing", exchange)
        }
    }

    /// `poll.wrong-type`: the device's poll for another type does not list this document.
    mutating func otherTypePoll() async {
        let id = "poll.wrong-type"
        let other = target.typeIdentifier + ".passmintcheck"
        guard let exchange = await call(id, "poll", .poll, pollPath(device, type: other)) else { return }
        if listsTarget(exchange) {
            fail(
                id, "the poll for \(other) listed \(target.identifier), of \(target.typeIdentifier)", exchange,
                fix: "list only \(noun)s of the type in the path")
        } else {
            pass(id, "the poll for another type listed nothing of \(target.typeIdentifier)", exchange)
        }
    }
}
