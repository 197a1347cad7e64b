/// JSON paths as findings write them (`storeCard.secondaryFields[2].value`, `fulfillments[0].status`): members by
/// name, array elements by index.
package enum JSONPath {
    /// The values from `root` down `path`, root first, as far as the path leads: when it leads all the way, the last
    /// is the value at the path (`complete`). A path that runs on past a string ends at that string.
    package static func walk(_ path: String, in root: JSONValue) -> (nodes: [JSONValue], complete: Bool) {
        var nodes = [root]
        for part in path.split(separator: ".") {
            var name = Substring(part)
            var indexes: [Int] = []
            while name.hasSuffix("]"), let open = name.lastIndex(of: "["),
                let index = Int(name[name.index(after: open)..<name.index(before: name.endIndex)])
            {
                indexes.insert(index, at: 0)
                name = name[..<open]
            }
            if !name.isEmpty {
                guard let member = nodes[nodes.count - 1][String(name)] else { return (nodes, false) }
                nodes.append(member)
            }
            for index in indexes {
                guard let array = nodes[nodes.count - 1].arrayValue, array.indices.contains(index) else { return (nodes, false) }
                nodes.append(array[index])
            }
        }
        return (nodes, true)
    }

    /// The value at `path`, if there is one.
    package static func value(at path: String, in root: JSONValue) -> JSONValue? {
        let walked = walk(path, in: root)
        return walked.complete ? walked.nodes.last : nil
    }
}
