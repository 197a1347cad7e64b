/// Work on many elements with a bounded number running at once: a window of `width` tasks in one task group, a new
/// one started as each finishes. The one such window in the package (pushes, job chunks, benchmark drivers use it).
package enum BoundedConcurrency {
    /// `work` on every element, at most `width` at once; the results in the order they finish.
    package static func map<Element: Sendable, Result: Sendable>(
        _ elements: some Sequence<Element>, width: Int, _ work: @escaping @Sendable (Element) async -> Result
    ) async -> [Result] {
        await withTaskGroup(of: Result.self) { group in
            var results: [Result] = []
            var iterator = elements.makeIterator()
            for _ in 0..<max(width, 1) {
                guard let element = iterator.next() else { break }
                group.addTask { await work(element) }
            }
            while let result = await group.next() {
                results.append(result)
                if let element = iterator.next() { group.addTask { await work(element) } }
            }
            return results
        }
    }
}
