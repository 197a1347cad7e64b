/// Which wallet the "add" page offers, from the browser's `User-Agent`: an iPhone, iPad or iPod gets "Add to Apple
/// Wallet", an Android phone "Add to Google Wallet" (when the service issues for Google Wallet), and anything else
/// (a computer) both, each with a QR code to scan with the phone.
enum LandingPlatform: Sendable, Equatable {
    case apple
    case android
    case desktop

    init(userAgent: String?) {
        let agent = userAgent ?? ""
        if agent.contains("Android") {
            self = .android
        } else if ["iPhone", "iPad", "iPod"].contains(where: agent.contains) {
            self = .apple
        } else {
            self = .desktop
        }
    }
}
