/// ISO 8601 durations, the durations of `order.json` (`pickupWindowDuration`, `estimatedDeliveryWindowDuration`):
/// `P`, then years, months, weeks and days (`nY`, `nM`, `nW`, `nD`), then `T` and hours, minutes and seconds (`nH`,
/// `nM`, `nS`). Each part is optional and may be zero (`P0Y0M0DT0H30M0S`, as Apple's own sample order writes it, is
/// thirty minutes), but there is at least one, they come in that order, each once, and a `T` has a part after it. Only
/// the last part may have a fraction (`PT1.5H`, `PT0,5S`).
public enum ISO8601Duration {
    /// Whether `text` is an ISO 8601 duration.
    public static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "P") else { return false }
        let dateDesignators: [UInt8] = Array("YMWD".utf8)
        let timeDesignators: [UInt8] = Array("HMS".utf8)
        var inTime = false
        var next = 0  // index of the first designator still allowed in the current part
        var parts = 0
        var partsInTime = 0
        var index = 1
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "T") {
                guard !inTime else { return false }
                inTime = true
                next = 0
                index += 1
                continue
            }
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            guard index > start, index < bytes.count else { return false }
            var fraction = false
            if bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
                index += 1
                let digits = index
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
                guard index > digits, index < bytes.count else { return false }
                fraction = true
            }
            let designators = inTime ? timeDesignators : dateDesignators
            guard let position = designators[next...].firstIndex(of: bytes[index]) else { return false }
            next = position + 1
            index += 1
            parts += 1
            if inTime { partsInTime += 1 }
            // A fraction is allowed on the smallest part written, the last one.
            if fraction, index != bytes.count { return false }
        }
        return parts > 0 && (!inTime || partsInTime > 0)
    }
}
