extension ServeSettings {
    /// The `PASSMINT_*` variables Passmint reads besides the settings': secrets, and what other commands share.
    static let otherVariables: Set<String> = [
        "PASSMINT_API_KEY", "PASSMINT_LINK_SECRET", "PASSMINT_CERTIFICATES", "PASSMINT_CHROMIUM", "PASSMINT_METRICS_TOKEN",
        ApplePayConfiguration.processorSecretVariable, ApplePayConfiguration.merchantKeyPassphraseVariable,
    ]

    /// The `PASSMINT_*` variables in `environment` that Passmint does not read (a typo that would otherwise go
    /// unnoticed while its default applies), each with the known variable it most likely means, when one is close.
    /// Variables of the test suite (`PASSMINT_TEST_…`, `PASSMINT_FUZZ_…`) are left alone.
    package static func unknownVariables(in environment: [String: String]) -> [(name: String, meant: String?)] {
        let known = Set(all.map(\.variable)).union(otherVariables)
        return environment.keys.filter { name in
            name.hasPrefix("PASSMINT_") && !known.contains(name) && !name.hasPrefix("PASSMINT_TEST_") && !name.hasPrefix("PASSMINT_FUZZ_")
        }.sorted().map { name in
            let closest = known.map { ($0, distance(name, $0)) }.min { ($0.1, $0.0) < ($1.1, $1.0) }
            return (name, closest.flatMap { $0.1 <= max(2, name.count / 6) ? $0.0 : nil })
        }
    }

    /// Levenshtein distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let (a, b) = (Array(a.utf8), Array(b.utf8))
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return a.isEmpty ? b.count : row[b.count]
    }
}
