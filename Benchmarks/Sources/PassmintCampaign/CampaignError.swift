/// Why the campaign cannot go on, in words.
struct CampaignError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
